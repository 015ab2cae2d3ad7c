// Issues (contract §11.1): opening one for a plan (idempotent by request id),
// reading, and editing title, description and labels by mask.
import type { CommonQueryMethods } from "slonik";
import type { CallAudit } from "../../governance/index.ts";
import { type IamSubject, requirePermission, storedIam } from "../../identity/index.ts";
import {
  aborted,
  alreadyExists,
  checkRequestId,
  failedPrecondition,
  invalidArgument,
  maskFields,
  notFound,
  noticeChange,
  quoted,
} from "../../platform/index.ts";
import { parsePlanName, planName } from "../plan/plan-names.ts";
import { findPlan } from "../plan/plan.store.ts";
import { activeProject, projectName } from "../../inventory/index.ts";
import { rolloutName } from "../rollout/rollout-names.ts";
import { findRolloutByPlan } from "../rollout/rollout.store.ts";
import { issueOpened } from "../pipeline/issues.ts";
import { issueName, type IssueRef } from "./issue-names.ts";
import {
  findIssue,
  findIssueByRequest,
  forgetOldIssueRequest,
  findLiveIssueOfPlan,
  insertIssue,
  updateIssueFields,
  type IssueFields,
  type IssueRow,
} from "./issue.store.ts";

const MAX_LABEL_LENGTH = 63;

const MASK = {
  resource: "issue",
  editable: ["title", "description", "labels"],
  outputOnly: [
    "name", "type", "status", "plan", "rollout", "creator", "create_time", "update_time", "approval_status",
    "approval_template", "approvers", "current_step", "risk_level", "etag",
  ],
} as const;

export async function getIssue(db: CommonQueryMethods, ref: IssueRef): Promise<IssueRow> {
  const issue = await findIssue(db, ref);
  if (!issue) throw notFound(`issue "${issueName(ref)}" does not exist`);
  return issue;
}

export interface NewIssue {
  projectId: string;
  /** The plan's name, projects/<p>/plans/<id>. */
  plan: string;
  requestId: string;
  creator: string;
  /** Title, description and labels as given; an empty title takes the plan's (or its name). */
  draft: IssueFields;
}

export async function createIssue(audit: CallAudit, issue: NewIssue): Promise<IssueRow> {
  const tx = audit.tx;
  checkRequestId(issue.requestId);
  if (!issue.plan) throw invalidArgument("issue.plan: is required; name the plan the issue reviews (projects/<p>/plans/<id>)");
  const planRef = parsePlanName(issue.plan, "issue.plan");
  if (planRef.projectId !== issue.projectId) throw invalidArgument(`issue.plan: ${quoted(issue.plan)} is not a plan of ${projectName(issue.projectId)}`);
  await activeProject(tx, issue.projectId);
  const plan = await findPlan(tx, planRef.projectId, planRef.id, true);
  if (issue.requestId) {
    // After the plan's lock: a retry racing its first call sees the issue that call made.
    const earlier = await findIssueByRequest(tx, issue.creator, issue.requestId);
    if (earlier) return (audit.resource = issueName(earlier)), earlier;
    await forgetOldIssueRequest(tx, issue.creator, issue.requestId);
  }
  if (!plan) throw notFound(`plan "${issue.plan}" does not exist`);
  if (plan.state !== "ACTIVE") throw failedPrecondition(`plan "${issue.plan}" is deleted`);
  await refuseSecondIssue(tx, plan);
  const labels = checkedLabels(issue.draft.labels);
  const row = await insertIssue(tx, {
    projectId: issue.projectId,
    planId: plan.id,
    title: issue.draft.title.trim() || plan.title || `Change of ${planName(plan)}`,
    description: issue.draft.description,
    labels,
    creator: issue.creator,
    requestId: issue.requestId || undefined,
  });
  const created = row ?? (await findIssueByRequest(tx, issue.creator, issue.requestId));
  if (!created) throw alreadyExists(`plan "${issue.plan}" already has an issue`);
  audit.resource = issueName(created);
  await noticeChange(tx, issueName(created));
  return row ? issueOpened(tx, created, plan) : created;
}

/** A plan has at most one OPEN or DONE issue, and a plan with a rollout gets no new one. */
async function refuseSecondIssue(tx: CommonQueryMethods, plan: { projectId: string; id: string }): Promise<void> {
  const live = await findLiveIssueOfPlan(tx, plan.projectId, plan.id);
  if (live) throw alreadyExists(`plan "${planName(plan)}" already has issue "${issueName(live)}" (${live.status})`);
  const rollout = await findRolloutByPlan(tx, plan.projectId, plan.id);
  if (rollout) {
    throw failedPrecondition(`plan "${planName(plan)}" already has a rollout (${rolloutName(rollout)}, ${rollout.state}); reopen its issue or make a new plan`);
  }
}

function checkedLabels(labels: readonly string[]): string[] {
  const checked = labels.map((label, i) => {
    const trimmed = label.trim();
    if (!trimmed || trimmed.length > MAX_LABEL_LENGTH) throw invalidArgument(`issue.labels[${i}]: a label has 1 to ${MAX_LABEL_LENGTH} characters`);
    return trimmed;
  });
  return [...new Set(checked)];
}

export interface IssueUpdate {
  ref: IssueRef;
  draft: IssueFields;
  paths: readonly string[];
  etag: string;
}

/** bb.issues.update, or the issue's creator (contract §11.1). */
export async function updateIssue(tx: CommonQueryMethods, caller: IamSubject & { name: string }, update: IssueUpdate): Promise<IssueRow> {
  const current = await findIssue(tx, update.ref, true);
  if (current?.creator !== caller.name) await requirePermission(storedIam(tx), caller, "bb.issues.update", projectName(update.ref.projectId));
  if (!current) throw notFound(`issue "${issueName(update.ref)}" does not exist`);
  const fields = maskFields(update.paths, MASK);
  if (update.etag && update.etag !== current.etag) {
    throw aborted(`issue "${issueName(current)}" changed since it was read (etag ${update.etag} is stale); read it again and retry`);
  }
  const title = fields.has("title") ? update.draft.title.trim() : current.title;
  if (!title) throw invalidArgument("issue.title: must not be empty");
  const updated = await updateIssueFields(tx, current, {
    title,
    description: fields.has("description") ? update.draft.description : current.description,
    labels: fields.has("labels") ? checkedLabels(update.draft.labels) : current.labels,
  });
  await noticeChange(tx, issueName(updated));
  return updated;
}
