// A user's new password, however it is set (contract §4.3, §5.1, §5.3, §4.7):
// a self-service change, an administrator's reset, a password-reset link or
// the server command. Whoever knew the old password loses what it gave:
// the user's sessions end (all but the caller's own on a self-service
// change), its unused reset links are spent and sign-ins waiting for their
// second step are dropped.
import { deletePrincipalMfaTempTokens } from "../auth/mfa-temp-token.store.ts";
import { spendPasswordResetTokens } from "../auth/password-reset-token.store.ts";
import { revokePrincipalSessions } from "../auth/session.store.ts";
import type { Tx } from "../../platform/index.ts";
import { setPassword } from "./user.store.ts";

export interface PasswordReplacement {
  /** The user must change it at the next sign-in (a password someone else chose). */
  requireReset: boolean;
  /** The session family that goes on (the caller's own, on a self-service change). */
  keepSessionFamilyId?: string | undefined;
}

export async function replacePassword(tx: Tx, user: { id: number }, hash: string, options: PasswordReplacement): Promise<void> {
  await setPassword(tx, user.id, hash, options.requireReset);
  await revokePrincipalSessions(tx, user.id, options.keepSessionFamilyId);
  await spendPasswordResetTokens(tx, user.id);
  await deletePrincipalMfaTempTokens(tx, user.id);
}
