// The first step of a sign-in, by password (password-login.ts) or by e-mail
// code (email-code-login.ts), contract §4.2, §4.4, §4.5: the attempt is
// recorded as bb.auth.login.fail until it succeeds and counted against the
// client IP's limit; a correct first factor ends with a session, or for a
// user with a second factor the temp token of the second step (mfa-login.ts).
import type { CallAudit, WorkspaceProfile } from "../../governance/index.ts";
import { normalizeLoginId, unauthenticated, userName } from "../../platform/index.ts";
import type { UserRow } from "../user/user.store.ts";
import { beginLoginAttempt, Refusal, refuse } from "./login-refusal.ts";
import { startSecondFactor } from "./mfa-login.ts";
import type { KnownMfaFacts } from "./mfa-requirement.ts";
import type { ClientFacts } from "./sessions.ts";
import { signIn, type SignedIn } from "./sign-in.ts";

/** A session, or the temp token to present with the second factor. */
export type LoginResult = ({ kind: "session" } & SignedIn) | { kind: "second factor"; mfaTempToken: string };

/**
 * Opens the attempt; answers the login id in its stored form and what
 * `count` read. `count` counts the request against the client IP's limit,
 * refusing it when the limit is reached, and may read along what the step
 * needs about a well-formed id (undefined when it is malformed). A malformed
 * id is then refused with `wrongMessage`, as a wrong credential is.
 */
export async function openLoginAttempt<T>(
  audit: CallAudit,
  typedLoginId: string,
  wrongMessage: string,
  count: (loginId: string | undefined) => Promise<T>,
): Promise<{ loginId: string; counted: T }> {
  const loginId = normalizeLoginId(typedLoginId);
  beginLoginAttempt(audit);
  audit.actor = userName(loginId ?? typedLoginId);
  const counted = await count(loginId);
  if (!loginId) throw refuse(audit, Refusal.malformed, unauthenticated(wrongMessage));
  return { loginId, counted };
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
