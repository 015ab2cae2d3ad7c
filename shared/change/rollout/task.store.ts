// SQL on task (contract §12.1, §12.2). Task lists leave the statement out
// (a rollout may hold hundreds of tasks of a 2 MiB script each).
import { sql, type CommonQueryMethods, type FragmentSqlToken } from "slonik";
import { z } from "zod";
import type { ReleaseFileRef } from "../plan/plan-specs.ts";
import type { RolloutRef } from "./rollout-names.ts";

export const TASK_STATES = ["NOT_STARTED", "PENDING", "RUNNING", "DONE", "FAILED", "CANCELED", "SKIPPED"] as const;
export type TaskState = (typeof TASK_STATES)[number];
export type TaskType = "DATABASE_MIGRATE" | "DATABASE_DATA_UPDATE";

/** task.release_file: the release file a release-sourced task applies. */
export const releaseFileColumn = z.object({ release: z.string(), path: z.string(), version: z.string(), sha256: z.string() });

const taskRow = z
  .object({
    id: z.coerce.number(),
    project_id: z.string(),
    rollout_id: z.string(),
    stage_id: z.string(),
    position: z.number(),
    spec_id: z.string(),
    instance_id: z.string(),
    database_name: z.string(),
    type: z.enum(["DATABASE_MIGRATE", "DATABASE_DATA_UPDATE"]),
    statement_sha256: z.string(),
    release_file: releaseFileColumn.nullable(),
    state: z.enum(TASK_STATES),
    skipped_reason: z.string(),
    next_statement: z.number(),
    latest_run_id: z.coerce.number().nullable(),
  })
  .transform((r) => ({
    id: r.id,
    rollout: { projectId: r.project_id, id: r.rollout_id } as RolloutRef,
    stageId: r.stage_id,
    position: r.position,
    specId: r.spec_id,
    instanceId: r.instance_id,
    databaseName: r.database_name,
    type: r.type as TaskType,
    statementSha256: r.statement_sha256,
    releaseFile: r.release_file ?? undefined,
    state: r.state,
    skippedReason: r.skipped_reason,
    nextStatement: r.next_statement,
    latestRunId: r.latest_run_id ?? undefined,
  }));

export type TaskRow = z.infer<typeof taskRow>;

const columns = sql.fragment`
  t.id, t.project_id, t.rollout_id, t.stage_id, t.position, t.spec_id, t.instance_id, t.database_name, t.type,
  t.statement_sha256, t.release_file, t.state, t.skipped_reason, t.next_statement,
  (select max(r.id) from task_run r where r.task_id = t.id) as latest_run_id`;

export interface NewTask {
  stageId: string;
  specId: string;
  instanceId: string;
  databaseName: string;
  type: TaskType;
  statement: string;
  statementSha256: string;
  releaseFile: ReleaseFileRef | undefined;
}

/**
 * The insert of the tasks, in the given order (their positions), into the
 * rollout that the statement's step `rollout` answers (project_id, id): a
 * step of the statement that makes the rollout.
 */
export function tasksInsert(rollout: string, tasks: readonly NewTask[]): FragmentSqlToken {
  const rows = tasks.map((t, position) => ({
    stage_id: t.stageId,
    position,
    spec_id: t.specId,
    instance_id: t.instanceId,
    database_name: t.databaseName,
    type: t.type,
    statement: t.statement,
    statement_sha256: t.statementSha256,
    release_file: t.releaseFile ?? null,
  }));
  const step = sql.identifier([rollout]);
  return sql.fragment`
    insert into task (project_id, rollout_id, stage_id, position, spec_id, instance_id, database_name, type, statement, statement_sha256, release_file)
    select ${step}.project_id, ${step}.id, stage_id, position, spec_id, instance_id, database_name, type, statement, statement_sha256, release_file
    from ${step}, jsonb_to_recordset(${sql.jsonb(rows)}) as x (
      stage_id text, position int, spec_id text, instance_id text, database_name text, type text,
      statement text, statement_sha256 text, release_file jsonb)`;
}

/** Every task of the rollout in stage order. */
export async function findTasks(db: CommonQueryMethods, ref: RolloutRef): Promise<TaskRow[]> {
  return [
    ...(await db.any(sql.type(taskRow)`
      select ${columns} from task t where t.project_id = ${ref.projectId} and t.rollout_id = ${ref.id} order by t.position`)),
  ];
}

/** The named tasks of the rollout (locked for update); ids that are not its tasks are missing. */
export async function findTasksById(db: CommonQueryMethods, ref: RolloutRef, ids: readonly number[]): Promise<TaskRow[]> {
  return [
    ...(await db.any(sql.type(taskRow)`
      select ${columns} from task t
      where t.project_id = ${ref.projectId} and t.rollout_id = ${ref.id} and t.id = any(${sql.array(ids, "int8")})
      order by t.position for update of t`)),
  ];
}

export async function setTaskState(db: CommonQueryMethods, ids: readonly number[], state: TaskState, changes: TaskChanges = {}): Promise<void> {
  await db.query(sql.unsafe`update task set ${taskStateAssignments(state, changes)} where id = any(${sql.array(ids, "int8")})`);
}

/** skippedReason and nextStatement are kept when not given. */
export interface TaskChanges {
  skippedReason?: string;
  nextStatement?: number;
}

/** The SET list of an update of tasks to `state`. */
function taskStateAssignments(state: TaskState, changes: TaskChanges): FragmentSqlToken {
  return sql.fragment`state = ${state}, update_time = now(),
    skipped_reason = coalesce(${changes.skippedReason ?? null}, skipped_reason),
    next_statement = coalesce(${changes.nextStatement ?? null}, next_statement)`;
}

/**
 * The update of a step of a task run's statement that moves the task of each
 * run the step `runs` answers (with its task_id) to `state`, so that a run
 * and its task change in one statement; without `changes`, only the state.
 */
export function runTasksUpdate(runs: string, state: TaskState, changes?: TaskChanges): FragmentSqlToken {
  const step = sql.identifier([runs]);
  const set = changes ? taskStateAssignments(state, changes) : sql.fragment`state = ${state}, update_time = now()`;
  return sql.fragment`update task set ${set} from ${step} where task.id = ${step}.task_id`;
}

const targetEnvironment = z.object({ instance_id: z.string(), name: z.string(), environment: z.string() });

/** The effective environment id of each database ('' when it has none). */
export async function targetEnvironments(
  db: CommonQueryMethods,
  refs: readonly { instanceId: string; name: string }[],
): Promise<Map<string, string>> {
  const rows = await db.any(sql.type(targetEnvironment)`
    select d.instance_id, d.name, coalesce(d.environment, i.environment) as environment
    from instance_database d
    join instance i on i.id = d.instance_id
    join unnest(${sql.array(refs.map((r) => r.instanceId), "text")}, ${sql.array(refs.map((r) => r.name), "text")}) as wanted (instance_id, name)
      on wanted.instance_id = d.instance_id and wanted.name = d.name`);
  return new Map(rows.map((r) => [`${r.instance_id}/${r.name}`, r.environment]));
}

/** Locks a task's row (lock order everywhere: rollout, then task, then task run). */
export async function lockTask(db: CommonQueryMethods, id: number): Promise<void> {
  await db.query(sql.unsafe`select 1 from task where id = ${id} for update`);
}

const goesOnRow = z.object({ goes_on: z.boolean() });

/**
 * Whether a stage goes on as it is after runs of its tasks ended: it and its
 * rollout are RUNNING, and it has tasks at work (PENDING or RUNNING) and none
 * waiting to start (NOT_STARTED). Then it stays RUNNING whatever those ends,
 * and no task may start because of them. Read through the index of
 * unfinished tasks (task_unfinished), with a plan made once per connection.
 */
export async function stageGoesOn(db: CommonQueryMethods, ref: RolloutRef, stageId: string): Promise<boolean> {
  const goesOn = await db.maybeOneFirst(sql.prepared("task.stage_goes_on", goesOnRow)`
    select s.state = 'RUNNING' and r.state = 'RUNNING'
       and exists (select 1 from task o
                   where o.project_id = s.project_id and o.rollout_id = s.rollout_id and o.stage_id = s.id
                     and o.state in ('PENDING', 'RUNNING'))
       and not exists (select 1 from task o
                       where o.project_id = s.project_id and o.rollout_id = s.rollout_id and o.stage_id = s.id
                         and o.state = 'NOT_STARTED') as goes_on
    from stage s join rollout r on r.project_id = s.project_id and r.id = s.rollout_id
    where s.project_id = ${ref.projectId} and s.rollout_id = ${ref.id} and s.id = ${stageId}`);
  return goesOn ?? false;
}
