// The notification_delivery table (migration 0028) and the notify.deliver
// jobs that work on it. A transaction's deliveries are written with the jobs
// of their first attempts in it, up to NOTIFY_DELIVERIES_PER_JOB to a job
// (decision 0141); each later attempt has a job of its own. An attempt claims
// the rows (a lease, so that two workers never send one at once, and a
// PENDING status, so that a sent one is never sent again) and records the
// outcomes, with the next attempt's job when one is tried again.
// The claim and the outcomes commit without waiting for their WAL flush
// (decision 0122): a crash of the store loses at most the newest of them, and
// with them the later completion of their job, which then runs again.
import { type CommonQueryMethods, type FragmentSqlToken, sql } from "slonik";
import { z } from "zod";
import {
  addJob,
  afterNewest,
  type FilterTerm,
  keyedJobsAdding,
  newestFirst,
  NOTIFY_DELIVERIES_PER_JOB,
  type PageKey,
  pageTimeColumn,
  preparedCommand,
  sqlOperator,
  withPageTime,
} from "../platform/index.ts";

export const DELIVERY_STATUSES = ["PENDING", "SENT", "FAILED"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

export interface NewDelivery {
  channel: string;
  event: string;
  /** What the log shows. */
  target: string;
  /** Where the worker sends (never shown). */
  address: string;
  payload: Record<string, unknown>;
  eventTime: Date;
}

const deliveryRow = z
  .object({
    id: z.string(),
    channel: z.string(),
    event: z.string(),
    target: z.string(),
    status: z.enum(DELIVERY_STATUSES),
    attempts: z.coerce.number(),
    last_error: z.string(),
    create_time: z.coerce.date(),
    sent_time: z.coerce.date().nullable(),
  })
  .transform(({ last_error, create_time, sent_time, ...rest }) => ({ ...rest, lastError: last_error, createTime: create_time, sentTime: sent_time ?? undefined }));

const listedRow = withPageTime(deliveryRow);
export type DeliveryRow = z.infer<typeof listedRow>;

const columns = sql.fragment`id::text as id, channel, event, target, status, attempts, last_error, create_time, sent_time`;

const idRow = z.object({ id: z.coerce.number() });
const heldRow = z.object({ id: z.coerce.number(), due: z.coerce.date() });

/** A delivery's own job (a later attempt's) has this and its id for key: a newer one replaces one waiting. */
const JOB_KEY_PREFIX = "notify:";
const jobKey = (id: number) => `${JOB_KEY_PREFIX}${id}`;

/**
 * Writes the deliveries and their jobs, NOTIFY_DELIVERIES_PER_JOB to a job in
 * the order written, in the caller's transaction: one statement, a round trip
 * of the change that emits the events.
 */
export async function insertDeliveries(tx: CommonQueryMethods, deliveries: readonly NewDelivery[]): Promise<void> {
  if (deliveries.length === 0) return;
  const rows = deliveries.map((d) => ({ ...d, eventTime: d.eventTime.toISOString() }));
  await tx.query(preparedCommand("notification_delivery.insert")`
    with inserted as (
      insert into notification_delivery (channel, event, target, address, payload, event_time)
      select channel, event, target, address, payload, "eventTime"
      from jsonb_to_recordset(${sql.jsonb(rows as never)}) as r (channel text, event text, target text, address text, payload jsonb, "eventTime" timestamptz)
      returning id)
    ${keyedJobsAdding("notify.deliver", sql.fragment`
      select jsonb_build_object('deliveryIds', jsonb_agg(i.id order by i.id)) as payload, null as job_key, min(i.id) as position
      from (select id, (row_number() over (order by id) - 1) / ${NOTIFY_DELIVERIES_PER_JOB} as job from inserted) i
      group by i.job`)}`);
}

const claimedRow = z
  .object({ id: z.coerce.number(), delivery_id: z.string(), channel: z.string(), event: z.string(), address: z.string(), payload: z.record(z.string(), z.unknown()), attempts: z.number(), event_time: z.coerce.date() })
  .transform(({ delivery_id, event_time, ...rest }) => ({ ...rest, deliveryId: delivery_id, eventTime: event_time }));
export type ClaimedDelivery = z.infer<typeof claimedRow>;

/**
 * A step (CTE) `unflushed` that makes its statement's transaction commit
 * without waiting for the WAL flush; an update takes it in its FROM list.
 */
const unflushed = sql.fragment`unflushed as materialized (select set_config('synchronous_commit', 'off', true))`;

/**
 * Counts an attempt on each of the PENDING deliveries that nobody holds —
 * with `firstOnly`, of those never attempted (a later attempt has its own
 * job) — and answers those claimed.
 */
export async function claimDeliveries(db: CommonQueryMethods, ids: readonly number[], firstOnly: boolean, leaseMs: number): Promise<readonly ClaimedDelivery[]> {
  return db.any(sql.type(claimedRow)`
    with ${unflushed}
    update notification_delivery set attempts = attempts + 1, lease_until = now() + make_interval(secs => ${leaseMs / 1000})
    from unflushed
    where id = any(${sql.array(ids, "int8")}) and status = 'PENDING' and (lease_until is null or lease_until < now())
      and (attempts = 0 or not ${firstOnly})
    returning id, delivery_id::text, channel, event, address, payload, attempts, event_time`);
}

/**
 * For each of the deliveries still PENDING under a lease — another attempt
 * sends it, or one ended without recording its outcome (its worker died; a
 * recorded failure lets the lease go and waits for its own job) — a job of
 * its own for when the lease ends (at once when it has): the attempt that
 * the job finding them so would have made.
 */
export async function deferHeld(db: CommonQueryMethods, ids: readonly number[]): Promise<void> {
  const held = await db.any(sql.type(heldRow)`
    select id, greatest(lease_until, now()) as due from notification_delivery
    where id = any(${sql.array(ids, "int8")}) and status = 'PENDING' and lease_until is not null`);
  for (const { id, due } of held) await addJob(db, "notify.deliver", { deliveryId: id }, { jobKey: jobKey(id), runAt: due });
}

export async function recordSent(db: CommonQueryMethods, ids: readonly number[]): Promise<void> {
  await db.query(sql.unsafe`
    with ${unflushed}
    update notification_delivery set status = 'SENT', sent_time = now(), last_error = '', lease_until = null
    from unflushed where id = any(${sql.array(ids, "int8")})`);
}

/** Records a failed attempt: FAILED when it is final, else PENDING with the next attempt's job at `retryAt`. */
export async function recordFailure(tx: CommonQueryMethods, id: number, error: string, retryAt: Date | undefined): Promise<void> {
  const status = retryAt ? "PENDING" : "FAILED";
  await tx.query(sql.unsafe`
    with ${unflushed}
    update notification_delivery set status = ${status}, last_error = ${error}, lease_until = null from unflushed where id = ${id}`);
  if (retryAt) await addJob(tx, "notify.deliver", { deliveryId: id }, { jobKey: jobKey(id), runAt: retryAt });
}

/** Makes a FAILED delivery PENDING again with a fresh count of attempts and its job; false when it is not FAILED. */
export async function requeueFailed(tx: CommonQueryMethods, id: number): Promise<boolean> {
  const found = await tx.maybeOne(sql.type(idRow)`
    update notification_delivery set status = 'PENDING', attempts = 0, lease_until = null where id = ${id} and status = 'FAILED' returning id`);
  if (found) await addJob(tx, "notify.deliver", { deliveryId: id }, { jobKey: jobKey(id) });
  return found !== null;
}

export async function findDelivery(db: CommonQueryMethods, id: number): Promise<DeliveryRow | undefined> {
  return (await db.maybeOne(sql.type(listedRow)`select ${columns}, ${pageTimeColumn} from notification_delivery where id = ${id}`)) ?? undefined;
}

/** Rows newest first, each with its page time. */
export async function listDeliveries(db: CommonQueryMethods, terms: readonly FilterTerm[], after: PageKey | undefined, limit: number): Promise<readonly DeliveryRow[]> {
  const conditions = terms.map(condition);
  if (after) conditions.push(afterNewest(after));
  const where = conditions.length ? sql.fragment`where ${sql.join(conditions, sql.fragment` and `)}` : sql.fragment``;
  return db.any(sql.type(listedRow)`select ${columns}, ${pageTimeColumn} from notification_delivery ${where} ${newestFirst} limit ${limit}`);
}

function condition(term: FilterTerm): FragmentSqlToken {
  if (term.field === "create_time") return sql.fragment`create_time ${sqlOperator(term.op)} ${(term.value as Date).toISOString()}::timestamptz`;
  return sql.fragment`${sql.identifier([term.field])} ${sqlOperator(term.op)} ${String(term.value)}`;
}

/** Deletes up to `batch` sent or failed deliveries created before `cutoff`, oldest first; answers how many went. */
export async function deleteFinishedBefore(db: CommonQueryMethods, cutoff: Date, batch: number): Promise<number> {
  const result = await db.query(sql.unsafe`
    delete from notification_delivery where id in (
      select id from notification_delivery
      where create_time < ${cutoff.toISOString()}::timestamptz and status in ('SENT', 'FAILED')
      order by create_time, id limit ${batch})`);
  return result.rowCount;
}
