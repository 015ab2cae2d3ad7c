// Issues and their comments ⇄ svc.v1 Issue and IssueComment.
import { create, type JsonObject } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  Issue_ApprovalStatus,
  Issue_Approver_Status,
  Issue_Status,
  Issue_Type,
  IssueCommentSchema,
  IssueComment_Type,
  IssueSchema,
  type Issue,
  type IssueComment,
} from "../../shared/gen/svc/v1/issue_service_pb.js";
import {
  commentName,
  type CommentRow,
  type IssueFields,
  issueName,
  type IssueRow,
  type IssueStatus,
  planName,
  rolloutName,
} from "../../shared/change/index.ts";

export function toIssue(row: IssueRow): Issue {
  return create(IssueSchema, {
    name: issueName(row),
    title: row.title,
    description: row.description,
    type: Issue_Type.DATABASE_CHANGE,
    status: Issue_Status[row.status],
    plan: planName({ projectId: row.projectId, id: row.planId }),
    rollout: row.rolloutId ? rolloutName({ projectId: row.projectId, id: row.rolloutId }) : "",
    creator: row.creator,
    createTime: timestampFromDate(row.createTime),
    updateTime: timestampFromDate(row.updateTime),
    labels: row.labels,
    approvalStatus: Issue_ApprovalStatus[row.approvalStatus],
    approvalTemplate: row.approvalTemplate,
    approvers: row.approvers.map((a) => ({
      status: Issue_Approver_Status[a.status],
      principal: a.principal,
      step: a.step,
      comment: a.comment,
      time: timestampFromDate(new Date(a.time)),
    })),
    currentStep: row.currentStep,
    riskLevel: row.riskLevel,
    etag: row.etag,
  });
}

/**
 * Everything an issue's message is made of, as versions: its row, whose etag
 * every write changes (issue.store.ts), and its rollout, made later in a
 * table of its own.
 */
export function issueVersion(row: IssueRow): string {
  return `${row.projectId}/${row.issueId}/${row.etag}/${row.rolloutId ?? ""}`;
}

export function issueFields(issue: Issue | undefined): IssueFields {
  return { title: issue?.title ?? "", description: issue?.description ?? "", labels: issue?.labels ?? [] };
}

/** The status a request names; undefined when it names none. */
export function issueStatusOf(status: Issue_Status): IssueStatus | undefined {
  return status === Issue_Status.STATUS_UNSPECIFIED ? undefined : (Issue_Status[status] as IssueStatus);
}

export function toIssueComment(row: CommentRow): IssueComment {
  const { kind, ...detail } = row.event ?? {};
  return create(IssueCommentSchema, {
    name: commentName(row),
    comment: row.comment,
    type: IssueComment_Type[row.type],
    event: row.event ? { kind: String(kind ?? ""), detail: detail as JsonObject } : undefined,
    creator: row.creator,
    createTime: timestampFromDate(row.createTime),
    updateTime: timestampFromDate(row.updateTime),
  });
}
