// IssueService: issues, their approval and their comments (contract §11).
import { create } from "@bufbuild/protobuf";
import { IssueService, ListIssuesResponseSchema, type ListIssuesResponse } from "../../shared/gen/svc/v1/issue_service_pb.js";
import {
  approveIssue,
  commentName,
  createComment,
  createIssue,
  getIssue,
  listCommentPage,
  listIssuePage,
  parseCommentName,
  parseIssueName,
  rejectIssue,
  requestIssueReview,
  updateComment,
  updateIssue,
  updateIssuesStatus,
} from "../../shared/change/index.ts";
import type { IamReads } from "../../shared/identity/index.ts";
import type { Db, Metrics } from "../../shared/platform/index.ts";
import { parseProjectName } from "../../shared/inventory/index.ts";
import { auditScope } from "../transport/audit-scope.ts";
import { callerOf } from "../transport/interceptors/authn.ts";
import { registration } from "../transport/services.ts";
import { issueFields, issueStatusOf, issueVersion, toIssue, toIssueComment } from "./issue-convert.ts";
import { KeptAnswers } from "./kept-answers.ts";

/** Issue pages kept with their encodings (a page of 50 is about 40 kB of JSON per form). */
const KEPT_ISSUE_PAGES = 64;

export interface IssueDeps {
  db: Db;
  /** IAM reads for permission checks (the access cache). */
  iam: IamReads;
  metrics: Metrics;
}

export function issueService(deps: IssueDeps) {
  // A page polled again while none of its issues changed answers the message built for it then (kept-answers.ts).
  const issuePages = new KeptAnswers<ListIssuesResponse>(KEPT_ISSUE_PAGES);
  return registration(IssueService, {
    async getIssue(req) {
      return toIssue(await getIssue(deps.db, parseIssueName(req.name, "name")));
    },
    async listIssues(req, context) {
      const page = await listIssuePage(deps.db, deps.iam, callerOf(context), req);
      const version = `${page.rows.map(issueVersion).join(" ")} ${page.nextPageToken}`;
      return issuePages.answer(version, () => create(ListIssuesResponseSchema, { issues: page.rows.map(toIssue), nextPageToken: page.nextPageToken }));
    },
    async createIssue(req, context) {
      const issue = await createIssue(auditScope(context), {
        projectId: parseProjectName(req.parent, "parent"),
        plan: req.issue?.plan ?? "",
        requestId: req.requestId,
        creator: callerOf(context).name,
        draft: issueFields(req.issue),
      });
      return toIssue(issue);
    },
    async updateIssue(req, context) {
      const issue = await updateIssue(auditScope(context).tx, callerOf(context), {
        ref: parseIssueName(req.issue?.name ?? "", "issue.name"),
        draft: issueFields(req.issue),
        paths: req.updateMask?.paths ?? [],
        etag: req.issue?.etag ?? "",
      });
      return toIssue(issue);
    },
    async batchUpdateIssuesStatus(req, context) {
      const issues = await updateIssuesStatus(auditScope(context), {
        projectId: parseProjectName(req.parent, "parent"),
        issues: req.issues,
        status: issueStatusOf(req.status),
        reason: req.reason,
        actor: callerOf(context).name,
      });
      return { issues: issues.map(toIssue) };
    },
    async approveIssue(req, context) {
      const decision = { ref: parseIssueName(req.name, "name"), comment: req.comment };
      return toIssue(await approveIssue(auditScope(context).tx, callerOf(context), decision, deps.metrics));
    },
    async rejectIssue(req, context) {
      return toIssue(await rejectIssue(auditScope(context).tx, callerOf(context), { ref: parseIssueName(req.name, "name"), comment: req.comment }));
    },
    async requestIssueReview(req, context) {
      return toIssue(await requestIssueReview(auditScope(context).tx, callerOf(context), { ref: parseIssueName(req.name, "name"), comment: req.comment }));
    },
    async listIssueComments(req) {
      const page = await listCommentPage(deps.db, parseIssueName(req.parent, "parent"), req);
      return { issueComments: page.rows.map(toIssueComment), nextPageToken: page.nextPageToken };
    },
    async createIssueComment(req, context) {
      const audit = auditScope(context);
      const comment = await createComment(audit.tx, parseIssueName(req.parent, "parent"), req.comment?.comment ?? "", callerOf(context).name);
      audit.resource = commentName(comment);
      return toIssueComment(comment);
    },
    async updateIssueComment(req, context) {
      const comment = await updateComment(auditScope(context).tx, {
        ref: parseCommentName(req.comment?.name ?? "", "comment.name"),
        comment: req.comment?.comment ?? "",
        paths: req.updateMask?.paths ?? [],
        editor: callerOf(context).name,
      });
      return toIssueComment(comment);
    },
  });
}
