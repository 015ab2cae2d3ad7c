// The notification_delivery table (migration 0028) and the notify.deliver
// jobs that work on it. A delivery is written with its job in the caller's
// transaction; an attempt claims the row (a lease, so that two workers never
// send it at once, and a PENDING status, so that a sent one is never sent
// again) and records its outcome, with the next attempt's job when it retries.
// The claim and the outcome commit without waiting for their WAL flush
// (decision 0122): a crash of the store loses at most the newest of them, and
// with them the later completion of their job, which then runs again.
import { type CommonQueryMethods, type FragmentSqlToken, sql } from "slonik";
import { z } from "zod";
import { addJob, afterNewest, type FilterTerm, keyedJobsAdding, newestFirst, type PageKey, pageTimeColumn, preparedCommand, sqlOperator, withPageTime } from "../platform/index.ts";

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

/** A delivery's job key is this and its id: a later attempt's job replaces a waiting one. */
const JOB_KEY_PREFIX = "notify:";
const jobKey = (id: number) => `${JOB_KEY_PREFIX}${id}`;

/**
 * Writes the deliveries and one job each, in the caller's transaction: one
 * statement, a round trip of the change that emits the event.
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
      select jsonb_build_object('deliveryId', i.id) as payload, ${JOB_KEY_PREFIX} || i.id as job_key, i.id as position from inserted i`)}`);
}

const claimedRow = z
  .object({ delivery_id: z.string(), channel: z.string(), event: z.string(), address: z.string(), payload: z.record(z.string(), z.unknown()), attempts: z.number(), event_time: z.coerce.date() })
  .transform(({ delivery_id, event_time, ...rest }) => ({ ...rest, deliveryId: delivery_id, eventTime: event_time }));
export type ClaimedDelivery = z.infer<typeof claimedRow>;

/**
 * A step (CTE) `unflushed` that makes its statement's transaction commit
 * without waiting for the WAL flush; an update takes it in its FROM list.
 */
const unflushed = sql.fragment`unflushed as materialized (select set_config('synchronous_commit', 'off', true))`;

/** Counts an attempt on a PENDING delivery nobody else is sending; undefined when there is none to make. */
export async function claimDelivery(db: CommonQueryMethods, id: number, leaseMs: number): Promise<ClaimedDelivery | undefined> {
  const row = await db.maybeOne(sql.type(claimedRow)`
    with ${unflushed}
    update notification_delivery set attempts = attempts + 1, lease_until = now() + make_interval(secs => ${leaseMs / 1000})
    from unflushed
    where id = ${id} and status = 'PENDING' and (lease_until is null or lease_until < now())
    returning delivery_id::text, channel, event, address, payload, attempts, event_time`);
  return row ?? undefined;
}

export async function recordSent(db: CommonQueryMethods, id: number): Promise<void> {
  await db.query(sql.unsafe`
    with ${unflushed}
    update notification_delivery set status = 'SENT', sent_time = now(), last_error = '', lease_until = null from unflushed where id = ${id}`);
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
