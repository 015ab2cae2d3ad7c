// The first step of a sign-in, by password (password-login.ts) or by e-mail
// code (email-code-login.ts), contract §4.2, §4.4, §4.5: the attempt is
// recorded as bb.auth.login.fail until it succeeds and counted against the
// client IP's limit; a correct first factor ends with a session, or for a
// user with a second factor the temp token of the second step (mfa-login.ts).
import type { CallAudit, WorkspaceProfile } from "../../governance/index.ts";
import { type Db, normalizeLoginId, unauthenticated, userName } from "../../platform/index.ts";
import type { UserRow } from "../user/user.store.ts";
import { beginLoginAttempt, Refusal, refuse, takeLoginRateLimit } from "./login-refusal.ts";
import { startSecondFactor } from "./mfa-login.ts";
import type { KnownMfaFacts } from "./mfa-requirement.ts";
import type { ClientFacts } from "./sessions.ts";
import { signIn, type SignedIn } from "./sign-in.ts";

/** A session, or the temp token to present with the second factor. */
export type LoginResult = ({ kind: "session" } & SignedIn) | { kind: "second factor"; mfaTempToken: string };

/**
 * Opens the attempt; answers the login id in its stored form. A malformed one
 * is refused with `wrongMessage`, as a wrong credential is. `sideDb` carries
 * the rate-limit counter, which commits on its own.
 */
export async function openLoginAttempt(sideDb: Db, audit: CallAudit, client: ClientFacts, typedLoginId: string, wrongMessage: string): Promise<string> {
  const loginId = normalizeLoginId(typedLoginId);
  beginLoginAttempt(audit);
  audit.actor = userName(loginId ?? typedLoginId);
  await takeLoginRateLimit(sideDb, audit, client.clientIp);
  if (!loginId) throw refuse(audit, Refusal.malformed, unauthenticated(wrongMessage));
  return loginId;
}

/** Ends a correct first step: the second step's temp token when the user has a second factor, else the session. */
export async function finishFirstStep(
  audit: CallAudit,
  profile: WorkspaceProfile,
  client: ClientFacts,
  user: UserRow,
  known: KnownMfaFacts = {},
): Promise<LoginResult> {
  if (user.mfaEnabled) return { kind: "second factor", mfaTempToken: await startSecondFactor(audit, user) };
  return { kind: "session", ...(await signIn(audit, profile, client, user, known)) };
}
