// Checking a user's second factor (contract §4.2, §5.1): a TOTP code of the
// enabled secret is accepted once (its time step is taken atomically, so a
// replayed code fails, even when two calls present it at once); a recovery
// code is spent on use.
import type { CommonQueryMethods } from "slonik";
import type { SecretBox } from "../../platform/index.ts";
import { findMfaSecrets, spendRecoveryCode, takeTimeStep } from "./mfa.store.ts";
import { recoveryCodeHash } from "./recovery-codes.ts";
import { totpTimeStep } from "./totp.ts";

export const INVALID_CODE = "invalid verification code";

/** True when the code is a current TOTP code of the principal's enabled secret, not used before. */
export async function checkOtpCode(db: CommonQueryMethods, secrets: SecretBox, principalId: number, code: string): Promise<boolean> {
  const { secret } = await findMfaSecrets(db, principalId);
  if (!secret) return false;
  const step = await totpTimeStep(secrets.open(secret), code);
  return step !== undefined && (await takeTimeStep(db, principalId, step));
}

/** True when the code is one of the principal's unused recovery codes, which it spends. */
export async function checkRecoveryCode(db: CommonQueryMethods, principalId: number, code: string): Promise<boolean> {
  const hash = recoveryCodeHash(code);
  return hash !== undefined && (await spendRecoveryCode(db, principalId, hash));
}
