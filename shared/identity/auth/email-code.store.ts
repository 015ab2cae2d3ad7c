// SQL on email_signin_code: each user's current e-mail sign-in code, stored
// as a SHA-256 hash.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import { countRow } from "../../platform/index.ts";

const codeRow = z.object({ matches: z.boolean(), expired: z.boolean() });

export type EmailCodeRow = z.infer<typeof codeRow>;

/** Stores the user's new code in place of any earlier one. */
export async function replaceEmailCode(db: CommonQueryMethods, principalId: number, hash: Buffer, lifetimeMs: number): Promise<void> {
  await db.query(sql.unsafe`
    insert into email_signin_code (principal_id, code_hash, expire_time)
    values (${principalId}, ${sql.binary(hash)}, now() + make_interval(secs => ${lifetimeMs / 1000}))
    on conflict (principal_id) do update
      set code_hash = excluded.code_hash, expire_time = excluded.expire_time, failure_count = 0, create_time = now()`);
}

/** Whether `hash` is the user's code, which is locked until the transaction ends: tries of one code take turns. */
export async function lockEmailCode(db: CommonQueryMethods, principalId: number, hash: Buffer): Promise<EmailCodeRow | undefined> {
  const row = await db.maybeOne(sql.type(codeRow)`
    select code_hash = ${sql.binary(hash)} as matches, expire_time <= now() as expired
    from email_signin_code where principal_id = ${principalId} for update`);
  return row ?? undefined;
}

/** Counts a wrong try of the user's code; answers the new count. */
export async function countEmailCodeFailure(db: CommonQueryMethods, principalId: number): Promise<number> {
  return db.oneFirst(sql.type(countRow)`
    update email_signin_code set failure_count = failure_count + 1 where principal_id = ${principalId} returning failure_count as n`);
}

export async function deleteEmailCode(db: CommonQueryMethods, principalId: number): Promise<void> {
  await db.query(sql.unsafe`delete from email_signin_code where principal_id = ${principalId}`);
}

/** Deletes the codes that have expired; answers how many. */
export async function deleteExpiredEmailCodes(db: CommonQueryMethods): Promise<number> {
  const result = await db.query(sql.unsafe`delete from email_signin_code where expire_time <= now()`);
  return result.rowCount;
}
