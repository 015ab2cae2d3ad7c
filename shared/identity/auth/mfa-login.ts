// The second step of a sign-in with a second factor (contract §4.2, §18.1):
// the password step answers a temp token (5 minutes, single-use); the client
// repeats Login with it and a TOTP code or a recovery code. A wrong, replayed
// or expired code is refused like a wrong password and counts toward the
// login id's lockout (§4.4); five wrong codes void the token.
import { AuditAction, type CallAudit, type WorkspaceProfile } from "../../governance/index.ts";
import { type Db, invalidArgument, type SecretBox, unauthenticated, userName } from "../../platform/index.ts";
import { findUserById, type UserRow } from "../user/user.store.ts";
import { lockForAttempt, settleSuccess } from "./lockout.ts";
import { beginLoginAttempt, lockedRefusal, Refusal, refuse, refuseWrongCredential, takeLoginRateLimit } from "./login-refusal.ts";
import { countMfaTempTokenFailure, deleteMfaTempToken, insertMfaTempToken, lockMfaTempToken } from "./mfa-temp-token.store.ts";
import { checkOtpCode, checkRecoveryCode, INVALID_CODE } from "./second-factor.ts";
import type { ClientFacts } from "./sessions.ts";
import { signIn, type SignedIn } from "./sign-in.ts";
import { newMfaTempToken, tokenHash } from "./tokens.ts";

export const MFA_TEMP_TOKEN_LIFETIME_MS = 5 * 60_000;
export const MFA_TEMP_TOKEN_MAX_FAILURES = 5;

export interface SecondFactorInput {
  mfaTempToken: string;
  otpCode: string;
  recoveryCode: string;
}

/** Ends a correct first step (password or e-mail code) of a user with a second factor: the temp token for the second step. */
export async function startSecondFactor(audit: CallAudit, user: UserRow): Promise<string> {
  const token = newMfaTempToken();
  await insertMfaTempToken(audit.tx, tokenHash(token), user.id, MFA_TEMP_TOKEN_LIFETIME_MS);
  audit.action = AuditAction.login;
  audit.keepChangesOnError = false;
  audit.detail = { ...audit.detail, secondFactor: "required" };
  return token;
}

/** `sideDb` carries the rate-limit counter, which commits on its own. */
export async function secondFactorLogin(
  sideDb: Db,
  audit: CallAudit,
  secrets: SecretBox,
  profile: WorkspaceProfile,
  client: ClientFacts,
  input: SecondFactorInput,
): Promise<SignedIn> {
  beginLoginAttempt(audit);
  await takeLoginRateLimit(sideDb, audit, client.clientIp);
  if (!input.otpCode === !input.recoveryCode) {
    throw refuse(audit, Refusal.missingSecondFactor, invalidArgument("send either otp_code or recovery_code with mfa_temp_token"));
  }
  const tx = audit.tx;
  const hash = tokenHash(input.mfaTempToken);
  const token = await lockMfaTempToken(tx, hash);
  const user = token && !token.expired ? await findUserById(tx, token.principalId) : undefined;
  if (!user || user.state !== "ACTIVE") {
    throw refuse(audit, Refusal.invalidMfaTempToken, unauthenticated("the mfa_temp_token is invalid, used or expired; sign in with the password again"));
  }
  audit.actor = userName(user.loginId);
  // Attempts on one login id take turns from here, as password attempts do.
  const lockedUntil = await lockForAttempt(tx, user.loginId);
  if (lockedUntil) throw lockedRefusal(audit, lockedUntil);
  const factor = input.otpCode ? "totp" : "recovery code";
  const valid = input.otpCode ? await checkOtpCode(tx, secrets, user.id, input.otpCode) : await checkRecoveryCode(tx, user.id, input.recoveryCode);
  if (!valid) {
    const failures = await countMfaTempTokenFailure(tx, hash);
    if (failures >= MFA_TEMP_TOKEN_MAX_FAILURES) await deleteMfaTempToken(tx, hash);
    audit.detail = { secondFactor: factor, tempTokenFailures: failures };
    throw await refuseWrongCredential(audit, user.loginId, Refusal.wrongSecondFactor, unauthenticated(INVALID_CODE));
  }
  await deleteMfaTempToken(tx, hash);
  await settleSuccess(tx, user.loginId); // no lock can have come: this attempt holds the row
  audit.detail = { secondFactor: factor };
  return signIn(audit, profile, client, user);
}
