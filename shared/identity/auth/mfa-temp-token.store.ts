// SQL on mfa_temp_token: the tokens between the password step and the
// second factor of a sign-in, stored as SHA-256 hashes.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import { countRow } from "../../platform/index.ts";

const tempTokenRow = z
  .object({ principal_id: z.coerce.number(), failure_count: z.number(), expired: z.boolean() })
  .transform((r) => ({ principalId: r.principal_id, failureCount: r.failure_count, expired: r.expired }));

export type MfaTempTokenRow = z.infer<typeof tempTokenRow>;

/** Stores a new token (expired ones are deleted by the worker's clean-up). */
export async function insertMfaTempToken(db: CommonQueryMethods, hash: Buffer, principalId: number, lifetimeMs: number): Promise<void> {
  await db.query(sql.unsafe`
    insert into mfa_temp_token (token_hash, principal_id, expire_time)
    values (${sql.binary(hash)}, ${principalId}, now() + make_interval(secs => ${lifetimeMs / 1000}))`);
}

/** The token, locked until the transaction ends: attempts with one token take turns. */
export async function lockMfaTempToken(db: CommonQueryMethods, hash: Buffer): Promise<MfaTempTokenRow | undefined> {
  const row = await db.maybeOne(sql.type(tempTokenRow)`
    select principal_id, failure_count, expire_time <= now() as expired
    from mfa_temp_token where token_hash = ${sql.binary(hash)} for update`);
  return row ?? undefined;
}

/** Counts a wrong factor presented with the token; answers the new count. */
export async function countMfaTempTokenFailure(db: CommonQueryMethods, hash: Buffer): Promise<number> {
  return db.oneFirst(sql.type(countRow)`
    update mfa_temp_token set failure_count = failure_count + 1 where token_hash = ${sql.binary(hash)} returning failure_count as n`);
}

export async function deleteMfaTempToken(db: CommonQueryMethods, hash: Buffer): Promise<void> {
  await db.query(sql.unsafe`delete from mfa_temp_token where token_hash = ${sql.binary(hash)}`);
}

export async function deletePrincipalMfaTempTokens(db: CommonQueryMethods, principalId: number): Promise<void> {
  await db.query(sql.unsafe`delete from mfa_temp_token where principal_id = ${principalId}`);
}

/** Deletes the tokens that have expired; answers how many. */
export async function deleteExpiredMfaTempTokens(db: CommonQueryMethods): Promise<number> {
  const result = await db.query(sql.unsafe`delete from mfa_temp_token where expire_time <= now()`);
  return result.rowCount;
}
