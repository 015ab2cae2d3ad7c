// SQL of the start gate (contract §12.2, §12.7): what decides whether a
// PENDING task run may start (the claim reads it in the statement that
// starts the run, store/run-transitions.store.ts), read from the run's task,
// rollout, project, plan checks and the runs on its database.
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
