// The change capability's public surface: what other capabilities and the
// processes use. Everything else under shared/change/ is private to it.
export { approveIssue, rejectIssue, requestIssueReview } from "./approval/approval-actions.ts";
export type { CommentRow } from "./issue/issue-comment.store.ts";
export { createComment, listCommentPage, updateComment } from "./issue/issue-comments.ts";
export { listIssuePage } from "./issue/issue-list.ts";
export { commentName, issueName, parseCommentName, parseIssueName } from "./issue/issue-names.ts";
export { updateIssuesStatus } from "./issue/issue-status.ts";
export { findLiveIssueOfPlan, type IssueFields, type IssueRow, issuesAndRolloutsOfPlans, type IssueStatus } from "./issue/issue.store.ts";
export { createIssue, getIssue, updateIssue } from "./issue/issues.ts";
export { PIPELINE_EVENTS, type PipelineEvent, type PipelineEventName, type PipelineSubscriber, subscribeToPipeline } from "./pipeline/events.ts";
export { createRollout } from "./pipeline/rollout-creation.ts";
export { type CheckResult, countByStatus } from "./plan-check/check-result.ts";
export { type CheckRunRow, latestRuns, listRuns } from "./plan-check/check-run.store.ts";
export { cancelCheckRun, checkRunName, getCheckRun, parseCheckRunName, startCheckRun } from "./plan-check/check-runs.ts";
export { executeCheckRun } from "./plan-check/run-checks.ts";
export { targetResolver } from "./plan-check/target-resolver.ts";
export { parsePlanName, planName } from "./plan/plan-names.ts";
export { getPlan, listPlanPage } from "./plan/plan-reads.ts";
export type { PlanRow } from "./plan/plan.store.ts";
export { createPlan, deletePlan, type PlanDraft, updatePlan } from "./plan/plans.ts";
export { checkRelease, type ReleaseCheck } from "./release/release-check.ts";
export type { ReleaseFileInput } from "./release/release-files.ts";
export { listReleasePage } from "./release/release-list.ts";
export { parseReleaseName, releaseName } from "./release/release-names.ts";
export { createPlanFromRelease } from "./release/release-plan.ts";
export type { ReleaseRow } from "./release/release.store.ts";
export { createRelease, deleteRelease, getRelease, type ReleaseDraft, undeleteRelease, updateReleaseTitle } from "./release/releases.ts";
export { listRevisionPage } from "./revision/revision-list.ts";
export { parseRevisionName, revisionName } from "./revision/revision-names.ts";
export type { RevisionRow } from "./revision/revision.store.ts";
export { type BaselineDraft, createBaseline, deleteRevision, getRevision } from "./revision/revisions.ts";
export { RolloutFollowUps } from "./rollout/follow-ups.ts";
export { advanceRollout, pauseRollout, resumeRollout, runTasks, skipTasks } from "./rollout/rollout-actions.ts";
export { cancelRollout, cancelTaskRuns } from "./rollout/rollout-cancel.ts";
export {
  parseRolloutName,
  parseTaskName,
  parseTaskRunName,
  rolloutName,
  type RolloutRef,
  stageName,
  taskName,
  taskRunName,
} from "./rollout/rollout-names.ts";
export { getRolloutView, listRolloutViews, type RolloutView, type TaskView } from "./rollout/rollout-view.ts";
export { changeSettingRules } from "./setting-rules.ts";
export { type CancelWatch, createCancelWatch } from "./task-run/cancel-watch.ts";
export { executeTaskRun, type ExecutionDeps } from "./task-run/execute-task-run.ts";
export { RECONCILE_EVERY_MS, reconcileTaskRuns } from "./task-run/reconcile.ts";
export { LockConnections } from "./task-run/run-locks.store.ts";
export { findTaskRunLog, type TaskRunLogEntry } from "./task-run/store/task-run-log.store.ts";
export { findTaskRun, listTaskRuns, type TaskRunRow } from "./task-run/store/task-run.store.ts";
