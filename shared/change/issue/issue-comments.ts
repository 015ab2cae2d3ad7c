// Comments on an issue (contract §11.1): people's comments beside the
// server's events, oldest first. Only its author edits a comment; events are
// never edited.
import type { CommonQueryMethods } from "slonik";
import {
  failedPrecondition,
  invalidArgument,
  keysetPage,
  maskFields,
  notFound,
  noticeChange,
  type Page,
  type PageRequest,
  permissionDenied,
} from "../../platform/index.ts";
import { findComment, insertComment, listComments, updateCommentText, type CommentRow } from "./issue-comment.store.ts";
import { commentName, issueName, type CommentRef, type IssueRef } from "./issue-names.ts";
import { issueCommented } from "../pipeline/issues.ts";
import { getIssue } from "./issues.ts";

const MAX_COMMENT_LENGTH = 64 * 1024;

const MASK = {
  resource: "comment",
  editable: ["comment"],
  outputOnly: ["name", "type", "event", "creator", "create_time", "update_time"],
} as const;

export async function listCommentPage(db: CommonQueryMethods, ref: IssueRef, request: PageRequest): Promise<Page<CommentRow>> {
  await getIssue(db, ref);
  return keysetPage(
    request,
    issueName(ref),
    ["integer"],
    (after, limit) => listComments(db, ref, after ? Number(after[0]) : 0, limit),
    (row) => [row.commentId],
  );
}

export async function createComment(tx: CommonQueryMethods, ref: IssueRef, text: string, creator: string): Promise<CommentRow> {
  const issue = await getIssue(tx, ref);
  const row = await insertComment(tx, ref, { type: "COMMENT", comment: checkedText(text), event: undefined, creator });
  await noticeChange(tx, issueName(ref));
  await issueCommented(tx, issue, row);
  return row;
}

export interface CommentUpdate {
  ref: CommentRef;
  comment: string;
  paths: readonly string[];
  /** users/<login_id> of the caller. */
  editor: string;
}

export async function updateComment(tx: CommonQueryMethods, update: CommentUpdate): Promise<CommentRow> {
  maskFields(update.paths, MASK);
  const current = await findComment(tx, update.ref, true);
  if (!current) throw notFound(`issue comment "${commentName(update.ref)}" does not exist`);
  if (current.type === "EVENT") throw failedPrecondition(`"${commentName(update.ref)}" records an event; events cannot be edited`);
  if (current.creator !== update.editor) throw permissionDenied(`only the author of "${commentName(update.ref)}" (${current.creator}) may edit it`);
  const row = await updateCommentText(tx, update.ref, checkedText(update.comment));
  await noticeChange(tx, issueName(update.ref));
  return row;
}

function checkedText(text: string): string {
  if (!text.trim()) throw invalidArgument("comment.comment: must not be empty");
  if (text.length > MAX_COMMENT_LENGTH) throw invalidArgument(`comment.comment: is longer than ${MAX_COMMENT_LENGTH} characters`);
  return text;
}
