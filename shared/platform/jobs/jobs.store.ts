// SQL on graphile-worker's tables. Jobs are added with graphile_worker.add_job
// (add_jobs for several) on the caller's connection, so a job exists exactly
// when its change commits. Each payload carries the correlation id of the
// work that adds it (catalog.ts CORRELATION_ID_FIELD), when there is one.
import { sql, type CommonQueryMethods, type FragmentSqlToken } from "slonik";
import { z } from "zod";
import { preparedCommand } from "../db.ts";
import { currentCorrelationId } from "../log-context.ts";
import { CORRELATION_ID_FIELD, type JobName, type JobPayload } from "./catalog.ts";

export interface EnqueueOptions {
  /** Jobs with the same key collapse into one (graphile-worker job_key). */
  jobKey?: string;
  jobKeyMode?: "replace" | "preserve_run_at" | "unsafe_dedupe";
  /** Jobs of one named queue run one at a time, in order. */
  queueName?: string;
  runAt?: Date;
  maxAttempts?: number;
}

export async function addJob<N extends JobName>(db: CommonQueryMethods, name: N, payload: JobPayload<N>, options: EnqueueOptions = {}): Promise<void> {
  await db.query(sql.unsafe`
    select graphile_worker.add_job(
      identifier => ${name},
      payload => ${sql.jsonb({ ...payload, ...correlation() })}::json,
      queue_name => ${options.queueName ?? null},
      run_at => ${options.runAt ? sql.timestamp(options.runAt) : null},
      max_attempts => ${options.maxAttempts ?? null},
      job_key => ${options.jobKey ?? null},
      job_key_mode => ${options.jobKeyMode ?? null}
    )`);
}

const jobCounts = z.object({ pending: z.coerce.number(), running: z.coerce.number() });

export async function countJobs(db: CommonQueryMethods): Promise<{ pending: number; running: number }> {
  return db.one(sql.type(jobCounts)`
    select count(*) filter (where locked_at is null and attempts < max_attempts) as pending,
           count(*) filter (where locked_at is not null) as running
    from graphile_worker._private_jobs`);
}

/** Deletes jobs that used up their attempts and last changed before the cut-off. */
export async function deletePermafailedJobs(db: CommonQueryMethods, olderThanDays: number): Promise<number> {
  const result = await db.query(sql.unsafe`
    delete from graphile_worker._private_jobs
    where locked_at is null and attempts >= max_attempts
      and updated_at < now() - make_interval(days => ${olderThanDays})`);
  return result.rowCount;
}

/**
 * One job per row the query `jobs` selects (columns payload jsonb, job_key
 * text, and position: the jobs are added in its order), each under its job
 * key (a waiting job of the key is replaced; null: no key), without reading the rows first:
 * one prepared statement, named by the caller for its query.
 */
export async function addKeyedJobsSelected(db: CommonQueryMethods, statementName: string, name: JobName, jobs: FragmentSqlToken): Promise<void> {
  await db.query(preparedCommand(statementName)`${addJobsOf(name, jobs, undefined)}`);
}

/** addKeyedJobsSelected's query as a step of a larger statement (a CTE of it, evaluated when read); `runAt` schedules the jobs. */
export function keyedJobsAdding(name: JobName, jobs: FragmentSqlToken, runAt?: Date): FragmentSqlToken {
  return addJobsOf(name, jobs, runAt);
}

/** One job per payload in one statement, each under its own job key (a waiting job of the key is replaced). */
export async function addKeyedJobs<N extends JobName>(
  db: CommonQueryMethods,
  name: N,
  jobs: readonly { payload: JobPayload<N>; jobKey: string }[],
  runAt?: Date,
): Promise<void> {
  if (jobs.length === 0) return;
  const rows = sql.jsonb(jobs.map((j) => ({ payload: { ...j.payload, ...correlation() }, job_key: j.jobKey })) as never);
  await db.query(sql.unsafe`${addJobsOf(name, sql.fragment`select * from rows from (jsonb_to_recordset(${rows}) as (payload jsonb, job_key text)) with ordinality as r (payload, job_key, position)`, runAt)}`);
}

/**
 * graphile_worker.add_jobs over the selected rows, when there are any: the
 * jobs are written set-wise and the workers get one notice, where add_job
 * would write and notify per job. Its job keys replace as add_job's mode
 * 'replace' does (add_job itself calls it so). The correlation id is one
 * parameter, empty or not, so that a named statement keeps one text.
 */
function addJobsOf(name: JobName, jobs: FragmentSqlToken, runAt: Date | undefined) {
  return sql.fragment`
    select graphile_worker.add_jobs(specs) from (
      select array_agg(row(${name}, (j.payload::jsonb || ${sql.jsonb(correlation())})::json, null, ${runAt ? sql.timestamp(runAt) : null}::timestamptz, null, j.job_key, null, null)::graphile_worker.job_spec
                       order by j.position) as specs
      from (${jobs}) as j) as s
    where specs is not null`;
}

/** The payload field of the current correlation id; none outside any work. */
function correlation(): { [CORRELATION_ID_FIELD]?: string } {
  const correlationId = currentCorrelationId();
  return correlationId === undefined ? {} : { [CORRELATION_ID_FIELD]: correlationId };
}
