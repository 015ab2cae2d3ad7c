// SQL of the start gate (contract §12.2, §12.7): what decides whether a
// PENDING task run may start, the runs an emergency pause acts on, and the
// lock that orders a claim against the pause being switched on.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import { preparedCommand } from "../platform/db.ts";
import { EMERGENCY_PAUSE_LOCK } from "../platform/locks.ts";
import { storedSettingsColumn, storedSettingValues } from "../settings/setting.store.ts";

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

/** The facts' columns, of task t (with its rollout r and project p, from factsSource). */
const factColumns = sql.fragment`
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

const factsSource = sql.fragment`
  from task t
  join rollout r on r.project_id = t.project_id and r.id = t.rollout_id
  join project p on p.id = t.project_id`;

/** The facts of each task given, by task id (in one query). */
export async function findGateFacts(db: CommonQueryMethods, taskIds: readonly number[]): Promise<Map<number, GateFacts>> {
  if (taskIds.length === 0) return new Map();
  const rows = await db.any(sql.type(gateFacts)`select ${factColumns} ${factsSource} where t.id = any(${sql.array(taskIds, "int8")})`);
  return new Map(rows.map((r) => [r.task_id, factsOf(r)]));
}

const claimFacts = gateFacts.extend({ slot_limited: z.boolean(), settings: storedSettingValues });

export interface ClaimFacts {
  facts: GateFacts;
  /** The project limits the tasks a rollout runs at once (parallel_tasks_per_rollout). */
  slotLimited: boolean;
  /** The stored payloads of the settings asked for, by name (those ever written). */
  settings: Record<string, Record<string, unknown>>;
}

/** What claiming the task's run decides on, with the named settings as stored now (one prepared statement); undefined when the task is gone. */
export async function findClaimFacts(tx: CommonQueryMethods, taskId: number, settingNames: readonly string[]): Promise<ClaimFacts | undefined> {
  const row = await tx.maybeOne(sql.prepared("start_gate.claim_facts", claimFacts)`
    select ${factColumns}, p.parallel_tasks_per_rollout > 0 as slot_limited, ${storedSettingsColumn(settingNames)} as settings
    ${factsSource} where t.id = ${taskId}`);
  return row ? { facts: factsOf(row), slotLimited: row.slot_limited, settings: row.settings } : undefined;
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

/**
 * Taken (shared) by a transaction that claims a task run, before anything
 * else, and (exclusive) by the write that switches the emergency pause on:
 * either the claim commits first and the switch then sees its run RUNNING,
 * or the claim waits and then reads the pause on.
 */
export async function shareEmergencyPauseLock(tx: CommonQueryMethods): Promise<void> {
  await tx.query(preparedCommand("start_gate.share_emergency_pause_lock")`select pg_advisory_xact_lock_shared(${EMERGENCY_PAUSE_LOCK})`);
}

export async function takeEmergencyPauseLock(tx: CommonQueryMethods): Promise<void> {
  await tx.query(sql.unsafe`select pg_advisory_xact_lock(${EMERGENCY_PAUSE_LOCK})`);
}
