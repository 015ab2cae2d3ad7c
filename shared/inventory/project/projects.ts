// Projects (contract §9.1): reading, creating (the creator becomes the
// project's owner), updating by mask, soft deletion (databases move to the
// default project) and restoring.
import type { CommonQueryMethods } from "slonik";
import type { CallAudit } from "../../governance/index.ts";
import {
  aborted,
  alreadyExists,
  failedPrecondition,
  invalidArgument,
  maskFields,
  notFound,
  parseResourceName,
  quoted,
  RESOURCE_ID_PATTERN,
  userName,
} from "../../platform/index.ts";
import { grantRoles, userMember } from "../../identity/index.ts";
import { checkKey, checkLabels, newProjectFields, parallelTasks, timeoutMs, type ProjectDraft } from "./project-fields.ts";
import { findProject, insertProject, moveDatabasesToDefault, setProjectState, updateProject as updateRow, type ProjectRow } from "./project.store.ts";
import { projectActivity } from "./project-activity.store.ts";

export const DEFAULT_PROJECT = "default";
const OWNER_ROLE = "roles/projectOwner";

export interface ProjectUpdate {
  id: string;
  draft: ProjectDraft;
  /** update_mask paths. */
  paths: readonly string[];
  /** The etag the writer read; empty writes unconditionally. */
  etag: string;
}

const MASK = {
  resource: "project",
  editable: [
    "title",
    "key",
    "labels",
    "allow_self_approval",
    "parallel_tasks_per_rollout",
    "lock_timeout",
    "statement_timeout",
    "require_plan_check_success",
  ],
  outputOnly: ["name", "state", "creator", "create_time", "update_time", "etag"],
} as const;

export function projectName(id: string): string {
  return `projects/${id}`;
}

export function parseProjectName(name: string, field: string): string {
  return parseResourceName(name, "projects", field);
}

/** The project, deleted ones included; not_found when it does not exist. */
export async function getProject(db: CommonQueryMethods, id: string): Promise<ProjectRow> {
  const row = await findProject(db, id);
  if (!row) throw notFound(`project "${projectName(id)}" does not exist`);
  return row;
}

/** The project, which must be ACTIVE (for writes that add to it). */
export async function activeProject(db: CommonQueryMethods, id: string, forUpdate = false): Promise<ProjectRow> {
  const row = await findProject(db, id, forUpdate);
  if (!row) throw notFound(`project "${projectName(id)}" does not exist`);
  if (row.state !== "ACTIVE") throw failedPrecondition(`project "${projectName(id)}" is deleted; undelete it first`);
  return row;
}

export async function createProject(audit: CallAudit, creatorLoginId: string, id: string, draft: ProjectDraft): Promise<ProjectRow> {
  if (!RESOURCE_ID_PATTERN.test(id)) {
    throw invalidArgument(`project_id: ${quoted(id)} is not a valid project id; it starts with a lower-case letter and has up to 63 lower-case letters, digits and hyphens`);
  }
  audit.resource = projectName(id);
  const row = await insertProject(audit.tx, id, newProjectFields(id, draft), userName(creatorLoginId));
  if (!row) throw alreadyExists(`project "${projectName(id)}" already exists`);
  await grantRoles(audit, projectName(id), userMember(creatorLoginId), [{ role: OWNER_ROLE }], undefined, userName(creatorLoginId));
  return row;
}

export async function updateProject(tx: CommonQueryMethods, update: ProjectUpdate): Promise<ProjectRow> {
  const fields = maskFields(update.paths, MASK);
  const current = await activeProject(tx, update.id, true);
  if (update.etag && update.etag !== current.etag) {
    throw aborted(`project "${projectName(current.id)}" changed since it was read (etag ${update.etag} is stale); read it again and retry`);
  }
  const draft = update.draft;
  return updateRow(tx, current.id, {
    title: fields.has("title") ? draft.title.trim() || current.id : current.title,
    key: fields.has("key") ? checkKey(draft.key) : current.key,
    labels: fields.has("labels") ? checkLabels(draft.labels, "project.labels") : current.labels,
    allowSelfApproval: fields.has("allow_self_approval") ? draft.allowSelfApproval : current.allowSelfApproval,
    parallelTasksPerRollout: fields.has("parallel_tasks_per_rollout") ? parallelTasks(draft.parallelTasksPerRollout) : current.parallelTasksPerRollout,
    lockTimeoutMs: fields.has("lock_timeout") ? timeoutMs(draft.lockTimeout ?? "0s", "project.lock_timeout") : current.lockTimeoutMs,
    statementTimeoutMs: fields.has("statement_timeout")
      ? timeoutMs(draft.statementTimeout ?? "0s", "project.statement_timeout")
      : current.statementTimeoutMs,
    requirePlanCheckSuccess: fields.has("require_plan_check_success") ? (draft.requirePlanCheckSuccess ?? true) : current.requirePlanCheckSuccess,
  });
}

export async function deleteProject(tx: CommonQueryMethods, id: string): Promise<void> {
  if (id === DEFAULT_PROJECT) throw failedPrecondition(`project "${projectName(id)}" holds unassigned databases and cannot be deleted`);
  await activeProject(tx, id, true);
  const { openIssues, runningRollouts } = await projectActivity(tx, id);
  if (openIssues > 0 || runningRollouts > 0) {
    throw failedPrecondition(`project "${projectName(id)}" has ${openIssues} open issue(s) and ${runningRollouts} running rollout(s); finish or cancel them first`);
  }
  await moveDatabasesToDefault(tx, id);
  await setProjectState(tx, id, "DELETED");
}

export async function undeleteProject(tx: CommonQueryMethods, id: string): Promise<ProjectRow> {
  const row = await findProject(tx, id, true);
  if (!row) throw notFound(`project "${projectName(id)}" does not exist`);
  if (row.state === "ACTIVE") throw failedPrecondition(`project "${projectName(id)}" is not deleted`);
  return setProjectState(tx, id, "ACTIVE");
}
