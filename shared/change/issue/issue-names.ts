// Names of issues and their comments (contract §0.3):
// projects/<p>/issues/<number> and …/comments/<comment_id>.
import { invalidArgument, quoted } from "../../platform/index.ts";
import { projectName } from "../../inventory/index.ts";

export interface IssueRef {
  projectId: string;
  issueId: string;
}

export interface CommentRef extends IssueRef {
  commentId: number;
}

const ISSUE = "projects\\/([a-z][a-z0-9-]{0,62})\\/issues\\/([1-9][0-9]{0,18})";
const ISSUE_NAME = new RegExp(`^${ISSUE}$`);
const COMMENT_NAME = new RegExp(`^${ISSUE}\\/comments\\/([1-9][0-9]{0,15})$`);

export function issueName(ref: IssueRef): string {
  return `${projectName(ref.projectId)}/issues/${ref.issueId}`;
}

export function commentName(ref: CommentRef): string {
  return `${issueName(ref)}/comments/${ref.commentId}`;
}

export function parseIssueName(name: string, field: string): IssueRef {
  const match = ISSUE_NAME.exec(name);
  if (!match) throw invalidArgument(`${field}: ${quoted(name)} is not a valid issue name; use projects/<project_id>/issues/<issue_number>`);
  return { projectId: match[1]!, issueId: match[2]! };
}

export function parseCommentName(name: string, field: string): CommentRef {
  const match = COMMENT_NAME.exec(name);
  if (!match) {
    throw invalidArgument(`${field}: ${quoted(name)} is not a valid issue comment name; use projects/<project_id>/issues/<issue_number>/comments/<comment_id>`);
  }
  return { projectId: match[1]!, issueId: match[2]!, commentId: Number(match[3]) };
}
