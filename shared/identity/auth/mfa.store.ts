// SQL on a principal's second factor: the sealed TOTP secrets and last used
// time step (principal columns) and the hashed recovery codes.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";

const secretsRow = z
  .object({ mfa_secret: z.string().nullable(), mfa_temp_secret: z.string().nullable() })
  .transform((r) => ({ secret: r.mfa_secret, tempSecret: r.mfa_temp_secret }));

/** The sealed enabled and pending secrets (null when absent). */
export type MfaSecrets = z.infer<typeof secretsRow>;

export async function findMfaSecrets(db: CommonQueryMethods, principalId: number): Promise<MfaSecrets> {
  return db.one(sql.type(secretsRow)`select mfa_secret, mfa_temp_secret from principal where id = ${principalId}`);
}

export async function setTempMfaSecret(db: CommonQueryMethods, principalId: number, sealed: string): Promise<void> {
  await db.query(sql.unsafe`update principal set mfa_temp_secret = ${sealed}, update_time = now() where id = ${principalId}`);
}

/** Makes the sealed secret the enabled one; `timeStep` is the step of the code that confirmed it. */
export async function enableMfaSecret(db: CommonQueryMethods, principalId: number, sealed: string, timeStep: number): Promise<void> {
  await db.query(sql.unsafe`
    update principal set mfa_secret = ${sealed}, mfa_temp_secret = null, mfa_last_time_step = ${timeStep}, update_time = now()
    where id = ${principalId}`);
}

/** Removes the factor, any pending secret and the recovery codes. */
export async function clearMfa(db: CommonQueryMethods, principalId: number): Promise<void> {
  await db.query(sql.unsafe`delete from mfa_recovery_code where principal_id = ${principalId}`);
  await db.query(sql.unsafe`
    update principal set mfa_secret = null, mfa_temp_secret = null, mfa_last_time_step = null, update_time = now()
    where id = ${principalId}`);
}

/**
 * Records `timeStep` as used when it is later than the last one used: true
 * for the one caller that gets there first, false for a replay (a code of
 * that step or an earlier one), however many present it at once.
 */
export async function takeTimeStep(db: CommonQueryMethods, principalId: number, timeStep: number): Promise<boolean> {
  const result = await db.query(sql.unsafe`
    update principal set mfa_last_time_step = ${timeStep}
    where id = ${principalId} and mfa_secret is not null
      and (mfa_last_time_step is null or mfa_last_time_step < ${timeStep})`);
  return result.rowCount === 1;
}

export async function replaceRecoveryCodes(db: CommonQueryMethods, principalId: number, hashes: readonly Buffer[]): Promise<void> {
  await db.query(sql.unsafe`delete from mfa_recovery_code where principal_id = ${principalId}`);
  await db.query(sql.unsafe`
    insert into mfa_recovery_code (principal_id, code_hash)
    select ${principalId}, decode(hash, 'hex') from unnest(${sql.array(hashes.map((h) => h.toString("hex")), "text")}) as hash`);
}

/** Spends an unused code: true for the one caller that gets there first. */
export async function spendRecoveryCode(db: CommonQueryMethods, principalId: number, hash: Buffer): Promise<boolean> {
  const result = await db.query(sql.unsafe`
    update mfa_recovery_code set used_time = now()
    where principal_id = ${principalId} and code_hash = ${sql.binary(hash)} and used_time is null`);
  return result.rowCount === 1;
}
