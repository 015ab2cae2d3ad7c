// The end of a successful sign-in, whichever steps it took (contract §4.2,
// §4.3): the sign-in time, a new session (limited to enrolling a second
// factor when the user must have one and has none, §5.1) and its record.
import { AuditAction, type CallAudit, type WorkspaceProfile } from "../../governance/index.ts";
import { passwordChangeDue } from "../user/password-rotation.ts";
import type { UserRow } from "../user/user.store.ts";
import { mfaEnrollmentDue, type KnownMfaFacts } from "./mfa-requirement.ts";
import { issueSession, sessionPolicyOf, type ClientFacts, type IssuedSession } from "./sessions.ts";

export interface SignedIn {
  user: UserRow;
  session: IssuedSession;
  requireResetPassword: boolean;
}

export async function signIn(audit: CallAudit, profile: WorkspaceProfile, client: ClientFacts, user: UserRow, known: KnownMfaFacts = {}): Promise<SignedIn> {
  const tx = audit.tx;
  const pendingMfaEnrollment = await mfaEnrollmentDue(tx, profile, user, known);
  const session = await issueSession(tx, user.id, sessionPolicyOf(profile), client, { pendingMfaEnrollment, recordsSignIn: true });
  audit.action = AuditAction.login;
  audit.keepChangesOnError = false;
  return { user, session, requireResetPassword: passwordChangeDue(user, profile.passwordRestriction.passwordRotationMs) };
}
