// SQL on issue (contract §11.1, §11.2). Every write changes the etag and the
// update time. An issue's rollout is read from the rollout table (one per plan).
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import type { IssueRef } from "./issue-names.ts";
import { findByRequest, oldRequestUse } from "../../platform/index.ts";
import { planColumns, planRow, type PlanRow } from "../plan/plan.store.ts";

const template = z.object({
  title: z.string().default(""),
  description: z.string().default(""),
  steps: z.array(z.object({ roles: z.array(z.string()) })),
});

const approver = z.object({
  status: z.enum(["APPROVED", "REJECTED"]),
  principal: z.string(),
  step: z.number(),
  comment: z.string(),
  time: z.string(),
});

export type ApprovalTemplate = z.infer<typeof template>;
export type Approver = z.infer<typeof approver>;
export type IssueStatus = "OPEN" | "DONE" | "CANCELED";
export type ApprovalStatus = "CHECKING" | "PENDING" | "APPROVED" | "REJECTED" | "SKIPPED";

export const issueRow = z
  .object({
    project_id: z.string(),
    id: z.string(),
    plan_id: z.string(),
    title: z.string(),
    description: z.string(),
    status: z.enum(["OPEN", "DONE", "CANCELED"]),
    labels: z.array(z.string()),
    approval_status: z.enum(["CHECKING", "PENDING", "APPROVED", "REJECTED", "SKIPPED"]),
    approval_template: template.nullable(),
    approvers: z.array(approver),
    current_step: z.number(),
    risk_level: z.string(),
    pending_time: z.coerce.date().nullable(),
    creator: z.string(),
    etag: z.string(),
    create_time: z.coerce.date(),
    update_time: z.coerce.date(),
    rollout_id: z.string().nullable(),
  })
  .transform((r) => ({
    projectId: r.project_id,
    issueId: r.id,
    planId: r.plan_id,
    title: r.title,
    description: r.description,
    status: r.status,
    labels: r.labels,
    approvalStatus: r.approval_status,
    /** The selected template; undefined while CHECKING and when no rule matched. */
    approvalTemplate: r.approval_template ?? undefined,
    approvers: r.approvers,
    currentStep: r.current_step,
    riskLevel: r.risk_level,
    /** When approval first became PENDING. */
    pendingTime: r.pending_time ?? undefined,
    creator: r.creator,
    etag: r.etag,
    createTime: r.create_time,
    updateTime: r.update_time,
    rolloutId: r.rollout_id ?? undefined,
  }));

export type IssueRow = z.infer<typeof issueRow>;

export const issueColumns = sql.fragment`
  issue.project_id, issue.id, issue.plan_id, issue.title, issue.description, issue.status, issue.labels, issue.approval_status,
  issue.approval_template, issue.approvers, issue.current_step, issue.risk_level, issue.pending_time, issue.creator, issue.etag,
  issue.create_time, issue.update_time,
  (select r.id from rollout r where r.project_id = issue.project_id and r.plan_id = issue.plan_id) as rollout_id`;

const newEtag = sql.fragment`etag = md5(random()::text || clock_timestamp()::text), update_time = now()`;
const LIVE = sql.fragment`status in ('OPEN', 'DONE')`;

export async function findIssue(db: CommonQueryMethods, ref: IssueRef, forUpdate = false): Promise<IssueRow | undefined> {
  return (
    (await db.maybeOne(sql.type(issueRow)`
      select ${issueColumns} from issue where project_id = ${ref.projectId} and id = ${ref.issueId}
      ${forUpdate ? sql.fragment`for update` : sql.fragment``}`)) ?? undefined
  );
}

const lockedPlanAndIssue = z.object({ plan: planRow, issue: issueRow });

/**
 * Locks the issue's plan and then the issue (the lock order) in one
 * statement: the issue's lock is taken above the join, which needs the plan's
 * locked row first. Both rows as locked; undefined when either is gone.
 */
export async function lockPlanAndIssue(db: CommonQueryMethods, ref: IssueRef & { planId: string }): Promise<{ plan: PlanRow; issue: IssueRow } | undefined> {
  return (
    (await db.maybeOne(sql.type(lockedPlanAndIssue)`
      with locked_plan as materialized (
        select ${planColumns} from plan where project_id = ${ref.projectId} and id = ${ref.planId} for update),
      locked_issue as materialized (
        select ${issueColumns} from locked_plan, issue where issue.project_id = ${ref.projectId} and issue.id = ${ref.issueId} for update of issue)
      select row_to_json(locked_plan) as plan, row_to_json(locked_issue) as issue from locked_plan, locked_issue`)) ?? undefined
  );
}

/** The plan's OPEN or DONE issue (there is at most one). */
export async function findLiveIssueOfPlan(db: CommonQueryMethods, projectId: string, planId: string, forUpdate = false): Promise<IssueRow | undefined> {
  return (
    (await db.maybeOne(sql.type(issueRow)`
      select ${issueColumns} from issue where project_id = ${projectId} and plan_id = ${planId} and ${LIVE}
      ${forUpdate ? sql.fragment`for update` : sql.fragment``}`)) ?? undefined
  );
}

export interface IssueFields {
  title: string;
  description: string;
  labels: readonly string[];
}

/** The new issue; undefined when its request id is taken (or the plan got a live issue meanwhile). */
export async function insertIssue(
  db: CommonQueryMethods,
  issue: IssueFields & { projectId: string; planId: string; creator: string; requestId: string | undefined },
): Promise<IssueRow | undefined> {
  return (
    (await db.maybeOne(sql.type(issueRow)`
      insert into issue (project_id, plan_id, title, description, labels, creator, request_id)
      values (${issue.projectId}, ${issue.planId}, ${issue.title}, ${issue.description}, ${sql.jsonb(issue.labels as never)},
              ${issue.creator}, ${issue.requestId ?? null})
      on conflict do nothing
      returning ${issueColumns}`)) ?? undefined
  );
}

export async function updateIssueFields(db: CommonQueryMethods, ref: IssueRef, fields: IssueFields): Promise<IssueRow> {
  return db.one(sql.type(issueRow)`
    update issue set title = ${fields.title}, description = ${fields.description}, labels = ${sql.jsonb(fields.labels as never)}, ${newEtag}
    where project_id = ${ref.projectId} and id = ${ref.issueId}
    returning ${issueColumns}`);
}

/** Moves the issue to `to` if its status is one of `from`; undefined (nothing written) otherwise. */
export async function transitionIssueStatus(
  db: CommonQueryMethods,
  ref: IssueRef,
  transition: { from: readonly IssueStatus[]; to: IssueStatus },
): Promise<IssueRow | undefined> {
  return (
    (await db.maybeOne(sql.type(issueRow)`
      update issue set status = ${transition.to}, ${newEtag}
      where project_id = ${ref.projectId} and id = ${ref.issueId} and status = any(${sql.array([...transition.from], "text")})
      returning ${issueColumns}`)) ?? undefined
  );
}

export interface Approval {
  status: ApprovalStatus;
  template: ApprovalTemplate | undefined;
  approvers: readonly Approver[];
  currentStep: number;
}

/** Stores the issue's approval; the first PENDING sets the pending time. */
export async function writeApproval(db: CommonQueryMethods, ref: IssueRef, approval: Approval): Promise<IssueRow> {
  const pendingTime = approval.status === "PENDING" ? sql.fragment`coalesce(pending_time, now())` : sql.fragment`pending_time`;
  return db.one(sql.type(issueRow)`
    update issue set approval_status = ${approval.status}, approval_template = ${approval.template ? sql.jsonb(approval.template) : null},
      approvers = ${sql.jsonb(approval.approvers as never)}, current_step = ${approval.currentStep}, pending_time = ${pendingTime}, ${newEtag}
    where project_id = ${ref.projectId} and id = ${ref.issueId}
    returning ${issueColumns}`);
}

const planIssue = z.object({ plan_id: z.string(), issue_id: z.string().nullable(), rollout_id: z.string().nullable() });

/**
 * Each plan's issue (the OPEN or DONE one, else the newest) and rollout, for
 * the plans that have one of them.
 */
export async function issuesAndRolloutsOfPlans(
  db: CommonQueryMethods,
  projectId: string,
  planIds: readonly string[],
): Promise<Map<string, { issueId: string | undefined; rolloutId: string | undefined }>> {
  if (planIds.length === 0) return new Map();
  const rows = await db.any(sql.type(planIssue)`
    select p.plan_id,
      (select i.id from issue i where i.project_id = ${projectId} and i.plan_id = p.plan_id
       order by i.status in ('OPEN', 'DONE') desc, i.create_time desc limit 1) as issue_id,
      (select r.id from rollout r where r.project_id = ${projectId} and r.plan_id = p.plan_id) as rollout_id
    from unnest(${sql.array(planIds, "text")}) as p (plan_id)`);
  return new Map(rows.map((r) => [r.plan_id, { issueId: r.issue_id ?? undefined, rolloutId: r.rollout_id ?? undefined }]));
}

/** The issue a creator made with a request id in the last 24 hours (§0.6). */
export function findIssueByRequest(db: CommonQueryMethods, creator: string, requestId: string): Promise<IssueRow | undefined> {
  return findByRequest(db, "issue", issueColumns, issueRow, creator, requestId);
}

/** Frees a request id the creator used for an issue more than 24 hours ago. */
export async function forgetOldIssueRequest(db: CommonQueryMethods, creator: string, requestId: string): Promise<void> {
  await db.query(sql.unsafe`update issue set request_id = null where ${oldRequestUse(creator, requestId)}`);
}
