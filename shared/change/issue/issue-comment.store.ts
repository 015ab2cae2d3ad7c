// SQL on issue_comment (contract §11.1): an issue's history of comments
// (COMMENT) and system events (EVENT), in the order they were written.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import { preparedCommand } from "../../platform/index.ts";
import type { CommentRef, IssueRef } from "./issue-names.ts";

const commentRow = z
  .object({
    id: z.coerce.number(),
    project_id: z.string(),
    issue_id: z.string(),
    type: z.enum(["COMMENT", "EVENT"]),
    comment: z.string(),
    event: z.record(z.string(), z.unknown()).nullable(),
    creator: z.string(),
    create_time: z.coerce.date(),
    update_time: z.coerce.date(),
  })
  .transform((r) => ({
    projectId: r.project_id,
    issueId: r.issue_id,
    commentId: r.id,
    type: r.type,
    comment: r.comment,
    /** {kind, ...facts} of an EVENT entry. */
    event: r.event ?? undefined,
    creator: r.creator,
    createTime: r.create_time,
    updateTime: r.update_time,
  }));

export type CommentRow = z.infer<typeof commentRow>;

const columns = sql.fragment`id, project_id, issue_id, type, comment, event, creator, create_time, update_time`;

export interface NewComment {
  type: "COMMENT" | "EVENT";
  comment: string;
  event: Record<string, unknown> | undefined;
  creator: string;
}

export async function insertComment(db: CommonQueryMethods, ref: IssueRef, entry: NewComment): Promise<CommentRow> {
  return db.one(sql.type(commentRow)`
    insert into issue_comment (project_id, issue_id, type, comment, event, creator)
    values (${ref.projectId}, ${ref.issueId}, ${entry.type}, ${entry.comment}, ${entry.event ? sql.jsonb(entry.event as never) : null}, ${entry.creator})
    returning ${columns}`);
}

/** Inserts the entries, each of its issue, in the order given: one statement. */
export async function insertComments(db: CommonQueryMethods, entries: readonly (NewComment & { ref: IssueRef })[]): Promise<void> {
  const rows = entries.map((e) => ({ project_id: e.ref.projectId, issue_id: e.ref.issueId, type: e.type, comment: e.comment, event: e.event ?? null, creator: e.creator }));
  await db.query(preparedCommand("issue_comment.insert_many")`
    insert into issue_comment (project_id, issue_id, type, comment, event, creator)
    select project_id, issue_id, type, comment, event, creator
    from rows from (jsonb_to_recordset(${sql.jsonb(rows as never)}) as (project_id text, issue_id text, type text, comment text, event jsonb, creator text))
      with ordinality as r (project_id, issue_id, type, comment, event, creator, position)
    order by position`);
}

export async function findComment(db: CommonQueryMethods, ref: CommentRef, forUpdate = false): Promise<CommentRow | undefined> {
  return (
    (await db.maybeOne(sql.type(commentRow)`
      select ${columns} from issue_comment
      where project_id = ${ref.projectId} and issue_id = ${ref.issueId} and id = ${ref.commentId}
      ${forUpdate ? sql.fragment`for update` : sql.fragment``}`)) ?? undefined
  );
}

export async function updateCommentText(db: CommonQueryMethods, ref: CommentRef, comment: string): Promise<CommentRow> {
  return db.one(sql.type(commentRow)`
    update issue_comment set comment = ${comment}, update_time = now()
    where project_id = ${ref.projectId} and issue_id = ${ref.issueId} and id = ${ref.commentId}
    returning ${columns}`);
}

/** The issue's entries oldest first, after the entry id `after` (0 = from the first). */
export async function listComments(db: CommonQueryMethods, ref: IssueRef, after: number, limit: number): Promise<readonly CommentRow[]> {
  return db.any(sql.type(commentRow)`
    select ${columns} from issue_comment
    where project_id = ${ref.projectId} and issue_id = ${ref.issueId} and id > ${after}
    order by id limit ${limit}`);
}
