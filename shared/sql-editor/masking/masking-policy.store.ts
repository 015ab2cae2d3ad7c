// The masking_policy table (migration 0027): each policy's content as JSON,
// keyed by its resource (workspace, projects/<id>) and type.
import { type CommonQueryMethods, sql } from "slonik";
import { z } from "zod";

export type MaskingPolicyType = "MASKING_RULE" | "MASKING_EXEMPTION";

const policyRow = z
  .object({ payload: z.record(z.string(), z.unknown()), etag: z.string(), update_time: z.coerce.date() })
  .transform((r) => ({ payload: r.payload, etag: r.etag, updateTime: r.update_time }));

export type StoredMaskingPolicy = z.infer<typeof policyRow>;

export async function findMaskingPolicy(db: CommonQueryMethods, resource: string, type: MaskingPolicyType): Promise<StoredMaskingPolicy | undefined> {
  const row = await db.maybeOne(sql.type(policyRow)`
    select payload, etag, update_time from masking_policy where resource = ${resource} and type = ${type}`);
  return row ?? undefined;
}

/** The policy for update: its row locked until the transaction ends. */
export async function lockMaskingPolicy(db: CommonQueryMethods, resource: string, type: MaskingPolicyType): Promise<StoredMaskingPolicy | undefined> {
  const row = await db.maybeOne(sql.type(policyRow)`
    select payload, etag, update_time from masking_policy where resource = ${resource} and type = ${type} for update`);
  return row ?? undefined;
}

export async function saveMaskingPolicy(db: CommonQueryMethods, resource: string, type: MaskingPolicyType, payload: object): Promise<StoredMaskingPolicy> {
  return db.one(sql.type(policyRow)`
    insert into masking_policy (resource, type, payload) values (${resource}, ${type}, ${sql.jsonb(payload as never)})
    on conflict (resource, type) do update
      set payload = excluded.payload, etag = md5(random()::text || clock_timestamp()::text), update_time = now()
    returning payload, etag, update_time`);
}

/** Writes the policy only if it was never written (one statement, so two first writers cannot both pass); undefined when it exists. */
export async function insertMaskingPolicy(db: CommonQueryMethods, resource: string, type: MaskingPolicyType, payload: object): Promise<StoredMaskingPolicy | undefined> {
  const row = await db.maybeOne(sql.type(policyRow)`
    insert into masking_policy (resource, type, payload) values (${resource}, ${type}, ${sql.jsonb(payload as never)})
    on conflict (resource, type) do nothing
    returning payload, etag, update_time`);
  return row ?? undefined;
}
