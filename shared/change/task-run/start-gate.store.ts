// SQL of the start gate (contract §12.2, §12.7): what decides whether a
// PENDING task run may start (the claim reads it in the statement that
// starts the run, task-run.store.ts), and the runs an emergency pause acts
// on.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";

const gateFacts = z.object({
  task_id: z.coerce.number(),
  rollout_state: z.string(),
  plan_check_errors: z.boolean(),
  database_busy: z.boolean(),
});

export interface GateFacts {
  rolloutState: string;
  /** The project requires plan checks to pass, and the plan's latest finished check run has an ERROR for the task's spec on its target. */
  planCheckErrors: boolean;
  /** Another task's run on the same target database is RUNNING. */
  databaseBusy: boolean;
}

const factsOf = (r: z.infer<typeof gateFacts>): GateFacts => ({
  rolloutState: r.rollout_state,
  planCheckErrors: r.plan_check_errors,
  databaseBusy: r.database_busy,
});

/** The facts' columns, of task t (with its rollout r and project p, from gateFactsSource). */
export const gateFactColumns = sql.fragment`
  t.id as task_id, r.state as rollout_state,
  p.require_plan_check_success and coalesce((
    select c.error_results from plan_check_run c
    where c.project_id = r.project_id and c.plan_id = r.plan_id and c.status in ('DONE', 'FAILED')
    order by c.id desc limit 1
  ) @> jsonb_build_array(jsonb_build_object(
    'specId', t.spec_id, 'target', 'instances/' || t.instance_id || '/databases/' || t.database_name)), false) as plan_check_errors,
  exists (
    select 1 from task_run other join task o on o.id = other.task_id
    where other.state = 'RUNNING' and o.id <> t.id and o.instance_id = t.instance_id and o.database_name = t.database_name
  ) as database_busy`;

export const gateFactsSource = sql.fragment`
  from task t
  join rollout r on r.project_id = t.project_id and r.id = t.rollout_id
  join project p on p.id = t.project_id`;

/** The facts of each task given, by task id (in one query). */
export async function findGateFacts(db: CommonQueryMethods, taskIds: readonly number[]): Promise<Map<number, GateFacts>> {
  if (taskIds.length === 0) return new Map();
  const rows = await db.any(sql.type(gateFacts)`select ${gateFactColumns} ${gateFactsSource} where t.id = any(${sql.array(taskIds, "int8")})`);
  return new Map(rows.map((r) => [r.task_id, factsOf(r)]));
}

const runId = z.object({ id: z.coerce.number() });

/** Every RUNNING task run of the workspace. */
export async function runningRunIds(db: CommonQueryMethods): Promise<number[]> {
  return [...(await db.anyFirst(sql.type(runId)`select id from task_run where state = 'RUNNING' order by id`))];
}

const pendingRun = z.object({ id: z.coerce.number(), run_at: z.coerce.date().nullable() });

/** Every PENDING task run of the workspace with its requested earliest start (batchRun's run time), oldest first. */
export async function pendingRunStarts(db: CommonQueryMethods): Promise<{ id: number; runAt: Date | undefined }[]> {
  const rows = await db.any(sql.type(pendingRun)`select id, run_at from task_run where state = 'PENDING' order by id`);
  return rows.map((r) => ({ id: r.id, runAt: r.run_at ?? undefined }));
}
