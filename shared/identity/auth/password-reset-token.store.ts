// SQL on password_reset_token: the password-reset links of local users,
// stored as SHA-256 hashes of their tokens.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";

const tokenRow = z
  .object({ principal_id: z.coerce.number(), usable: z.boolean() })
  .transform((r) => ({ principalId: r.principal_id, usable: r.usable }));

export type PasswordResetTokenRow = z.infer<typeof tokenRow>;

/** Stores a new token in place of the principal's earlier ones. */
export async function replacePasswordResetToken(db: CommonQueryMethods, hash: Buffer, principalId: number, lifetimeMs: number): Promise<void> {
  await db.query(sql.unsafe`delete from password_reset_token where principal_id = ${principalId}`);
  await db.query(sql.unsafe`
    insert into password_reset_token (token_hash, principal_id, expire_time)
    values (${sql.binary(hash)}, ${principalId}, now() + make_interval(secs => ${lifetimeMs / 1000}))`);
}

/** The token, locked until the transaction ends; usable = neither used nor expired. */
export async function lockPasswordResetToken(db: CommonQueryMethods, hash: Buffer): Promise<PasswordResetTokenRow | undefined> {
  const row = await db.maybeOne(sql.type(tokenRow)`
    select principal_id, used_time is null and expire_time > now() as usable
    from password_reset_token where token_hash = ${sql.binary(hash)} for update`);
  return row ?? undefined;
}

/** Deletes the tokens that are spent or expired (they answer like unknown ones); answers how many. */
export async function deleteDeadPasswordResetTokens(db: CommonQueryMethods): Promise<number> {
  const result = await db.query(sql.unsafe`delete from password_reset_token where used_time is not null or expire_time <= now()`);
  return result.rowCount;
}

/** Spends every unused token of the principal (the one just used among them). */
export async function spendPasswordResetTokens(db: CommonQueryMethods, principalId: number): Promise<void> {
  await db.query(sql.unsafe`update password_reset_token set used_time = now() where principal_id = ${principalId} and used_time is null`);
}
