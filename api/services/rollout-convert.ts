// Rollouts, stages, tasks and task runs ⇄ svc.v1 messages.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { databaseName } from "../../shared/inventory/index.ts";
import {
  Rollout_State,
  RolloutSchema,
  Stage_State,
  Task_State,
  Task_Type,
  TaskRun_State,
  TaskRunLogEntrySchema,
  TaskRunSchema,
  TaskSchema,
  type Rollout,
  type Task,
  type TaskRun,
  type TaskRunLogEntry,
} from "../../shared/gen/svc/v1/rollout_service_pb.js";
import {
  issueName,
  type TaskRunLogEntry as LogRow,
  planName,
  rolloutName,
  type RolloutView,
  stageName,
  taskName,
  taskRunName,
  type TaskRunRow,
  type TaskView,
} from "../../shared/change/index.ts";
import { environmentName } from "../../shared/governance/index.ts";

export function toRollout(view: RolloutView): Rollout {
  const { rollout, stages } = view;
  const tasks = view.tasks.map(toTask);
  const current = stages.find((s) => s.state !== "DONE" && s.state !== "SKIPPED") ?? stages.at(-1);
  return create(RolloutSchema, {
    name: rolloutName(rollout),
    plan: planName({ projectId: rollout.projectId, id: rollout.planId }),
    issue: rollout.issueId ? issueName({ projectId: rollout.projectId, issueId: rollout.issueId }) : "",
    title: rollout.title,
    state: Rollout_State[rollout.state],
    environment: current ? environmentName(current.id) : "",
    stages: stages.map((stage) => ({
      name: stageName(rollout, stage.id),
      environment: environmentName(stage.id),
      state: Stage_State[stage.state],
      tasks: tasks.filter((_, i) => view.tasks[i]!.stageId === stage.id),
    })),
    tasks,
    createTime: timestampFromDate(rollout.createTime),
    updateTime: timestampFromDate(rollout.updateTime),
    creator: rollout.creator,
  });
}

function toTask(task: TaskView): Task {
  return create(TaskSchema, {
    name: taskName(task.rollout, task.id),
    stage: stageName(task.rollout, task.stageId),
    target: databaseName({ instanceId: task.instanceId, name: task.databaseName }),
    type: Task_Type[task.type],
    state: Task_State[task.state],
    specId: task.specId,
    statementSha256: task.statementSha256,
    skippedReason: task.skippedReason,
    latestTaskRun: task.latestRunId ? taskRunName(task.rollout, task.id, task.latestRunId) : "",
    waitingReason: task.waitingReason,
  });
}

export function toTaskRun(run: TaskRunRow, log: readonly LogRow[] = []): TaskRun {
  return create(TaskRunSchema, {
    name: taskRunName(run.rollout, run.taskId, run.id),
    state: TaskRun_State[run.state],
    creator: run.creator,
    createTime: timestampFromDate(run.createTime),
    startTime: run.startTime ? timestampFromDate(run.startTime) : undefined,
    endTime: run.endTime ? timestampFromDate(run.endTime) : undefined,
    detail: run.detail,
    error: run.error,
    affectedRows: BigInt(run.affectedRows),
    log: log.map(toLogEntry),
  });
}

export function toLogEntry(entry: LogRow): TaskRunLogEntry {
  return create(TaskRunLogEntrySchema, {
    time: timestampFromDate(entry.time),
    statement: entry.statement,
    rowsAffected: BigInt(entry.rowsAffected),
    durationMs: entry.durationMs,
    error: entry.error,
    correlationId: entry.correlationId,
  });
}
