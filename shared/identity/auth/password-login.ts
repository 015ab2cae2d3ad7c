// Password sign-in (contract §4.2, §4.4, §4.5): rate limit per client IP,
// lockout per login id, argon2id verification with rehash, then a new
// session, or for a user with a second factor the temp token of the second
// step (mfa-login.ts). Every refusal is recorded as bb.auth.login.fail with
// its reason, and the failure count it changed commits with that record.
import type { CallAudit, WorkspaceProfile } from "../../governance/index.ts";
import { isWorkspaceAdmin } from "../iam/authorize.ts";
import { storedIam } from "../iam/iam-reads.ts";
import { type Db, permissionDenied, unauthenticated } from "../../platform/index.ts";
import { hashPassword, needsRehash, verifyPassword } from "../user/password-hash.ts";
import { replacePasswordHash } from "../user/user.store.ts";
import { finishFirstStep, openLoginAttempt, type LoginResult } from "./first-step.ts";
import { activeLock, lockInForce, settleSuccess } from "./lockout.ts";
import { admitLoginRequest, lockedRefusal, loginHit, Refusal, refuse, refuseWrongCredential, takeLoginRateLimit } from "./login-refusal.ts";
import type { ClientFacts } from "./sessions.ts";
import { takeHitWithSignInFacts, type SignInFacts } from "./sign-in-facts.store.ts";

export interface LoginInput {
  loginId: string;
  password: string;
}

const WRONG_CREDENTIALS = "invalid login id or password";

/** `sideDb` carries the rate-limit counter, which commits on its own. */
export async function passwordLogin(sideDb: Db, audit: CallAudit, profile: WorkspaceProfile, client: ClientFacts, input: LoginInput): Promise<LoginResult> {
  const count = (id: string | undefined) => countSignIn(sideDb, audit, client.clientIp, id);
  const { loginId, counted } = await openLoginAttempt(audit, input.loginId, WRONG_CREDENTIALS, count);
  const { user, failure, inRequire2faGroup } = counted!; // read for every well-formed id
  const tx = audit.tx;
  const earlyLock = lockInForce(failure);
  if (earlyLock) throw lockedRefusal(audit, earlyLock);

  const usable = user && user.state === "ACTIVE" && user.type === "END_USER" ? user : undefined;
  const matches = await verifyPassword(usable?.passwordHash, input.password);
  if (!matches || !usable) throw await refuseWrongCredential(audit, loginId, Refusal.wrongCredentials, unauthenticated(WRONG_CREDENTIALS));
  // With a second factor to come, the failure count is reset when that step succeeds.
  const lockedUntil = usable.mfaEnabled ? await activeLock(tx, loginId) : await settleSuccess(tx, loginId);
  if (lockedUntil) throw lockedRefusal(audit, lockedUntil);
  if (profile.disallowPasswordSignin && !(await isWorkspaceAdmin(storedIam(tx), { loginId }))) {
    throw refuse(audit, Refusal.passwordSigninDisabled, permissionDenied("password sign-in is disabled for this workspace; sign in through an identity provider"));
  }
  if (usable.passwordHash && needsRehash(usable.passwordHash)) await replacePasswordHash(tx, usable.id, await hashPassword(input.password));
  return finishFirstStep(audit, profile, client, usable, { inRequire2faGroup });
}

/** Counts the request and, for a well-formed login id, reads its sign-in facts in the same statement. */
async function countSignIn(sideDb: Db, audit: CallAudit, clientIp: string, loginId: string | undefined): Promise<SignInFacts | undefined> {
  if (!loginId) {
    await takeLoginRateLimit(sideDb, audit, clientIp);
    return undefined;
  }
  const { window, facts } = await takeHitWithSignInFacts(sideDb, loginHit(clientIp), loginId);
  admitLoginRequest(audit, window);
  return facts;
}
