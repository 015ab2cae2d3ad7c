// SQL on plan_check_run (contract §10.2).
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import type { CheckResult, RunStatus } from "./check-result.ts";

export const checkRunRow = z
  .object({
    id: z.coerce.number(),
    project_id: z.string(),
    plan_id: z.string(),
    status: z.enum(["RUNNING", "DONE", "FAILED", "CANCELED"]),
    results: z.array(z.record(z.string(), z.unknown())),
    error: z.string(),
    create_time: z.coerce.date(),
    update_time: z.coerce.date(),
  })
  .transform((r) => ({
    id: r.id,
    projectId: r.project_id,
    planId: r.plan_id,
    status: r.status,
    results: r.results as unknown as CheckResult[],
    error: r.error,
    createTime: r.create_time,
    updateTime: r.update_time,
  }));

export type CheckRunRow = z.infer<typeof checkRunRow>;

const columns = sql.fragment`id, project_id, plan_id, status, results, error, create_time, update_time`;

/** Cancels the plan's running run, if any (a newer run supersedes it). */
export async function cancelRunningRun(db: CommonQueryMethods, projectId: string, planId: string, reason: string): Promise<void> {
  await db.query(sql.unsafe`
    update plan_check_run set status = 'CANCELED', error = ${reason}, update_time = now()
    where project_id = ${projectId} and plan_id = ${planId} and status = 'RUNNING'`);
}

export async function insertRun(db: CommonQueryMethods, projectId: string, planId: string): Promise<CheckRunRow> {
  return db.one(sql.type(checkRunRow)`
    insert into plan_check_run (project_id, plan_id) values (${projectId}, ${planId}) returning ${columns}`);
}

export async function findRun(db: CommonQueryMethods, projectId: string, planId: string, id: number): Promise<CheckRunRow | undefined> {
  return (
    (await db.maybeOne(sql.type(checkRunRow)`
      select ${columns} from plan_check_run where project_id = ${projectId} and plan_id = ${planId} and id = ${id}`)) ?? undefined
  );
}

export async function findRunById(db: CommonQueryMethods, id: number): Promise<CheckRunRow | undefined> {
  return (await db.maybeOne(sql.type(checkRunRow)`select ${columns} from plan_check_run where id = ${id}`)) ?? undefined;
}

/** A plan's runs newest first, after the run id `before` (0 = from the newest). */
export async function listRuns(db: CommonQueryMethods, projectId: string, planId: string, before: number, limit: number): Promise<readonly CheckRunRow[]> {
  const after = before > 0 ? sql.fragment`and id < ${before}` : sql.fragment``;
  return db.any(sql.type(checkRunRow)`
    select ${columns} from plan_check_run where project_id = ${projectId} and plan_id = ${planId} ${after}
    order by id desc limit ${limit}`);
}

/** The newest run of each plan given. */
export async function latestRuns(db: CommonQueryMethods, projectId: string, planIds: readonly string[]): Promise<Map<string, CheckRunRow>> {
  if (planIds.length === 0) return new Map();
  const rows = await db.any(sql.type(checkRunRow)`
    select distinct on (plan_id) ${columns} from plan_check_run
    where project_id = ${projectId} and plan_id = any(${sql.array(planIds, "text")})
    order by plan_id, id desc`);
  return new Map(rows.map((r) => [r.planId, r]));
}

/**
 * Ends a RUNNING run with its outcome; false when it is no longer running
 * (cancelled or superseded meanwhile), and then nothing is written.
 */
export async function finishRun(db: CommonQueryMethods, id: number, status: Exclude<RunStatus, "RUNNING">, results: readonly CheckResult[], error: string): Promise<boolean> {
  const result = await db.query(sql.unsafe`
    update plan_check_run set status = ${status}, results = ${sql.jsonb(results as never)}, error = ${error}, update_time = now()
    where id = ${id} and status = 'RUNNING'`);
  return result.rowCount > 0;
}

export async function isRunRunning(db: CommonQueryMethods, id: number): Promise<boolean> {
  return db.exists(sql.unsafe`select 1 from plan_check_run where id = ${id} and status = 'RUNNING'`);
}
