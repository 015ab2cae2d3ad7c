// Resetting a user's second factor (contract §4.3, §4.7, §5.1), by an
// administrator (ResetMfa) or the server command for a lost administrator:
// the factor, any pending secret, the recovery codes and any sign-in waiting
// for its second step go, and all of the user's sessions end. The user signs
// in with the password and enrols again.
import { deletePrincipalMfaTempTokens } from "../auth/mfa-temp-token.store.ts";
import { clearMfa } from "../auth/mfa.store.ts";
import { revokePrincipalSessions } from "../auth/session.store.ts";
import { notFound, type Tx } from "../../platform/index.ts";
import { findUserByLoginId } from "./user.store.ts";

/** Answers whether the user had a second factor. */
export async function resetMfa(tx: Tx, loginId: string): Promise<{ wasEnabled: boolean }> {
  const user = await findUserByLoginId(tx, loginId);
  if (!user) throw notFound(`user "${loginId}" does not exist`);
  await clearMfa(tx, user.id);
  await deletePrincipalMfaTempTokens(tx, user.id);
  await revokePrincipalSessions(tx, user.id);
  return { wasEnabled: user.mfaEnabled };
}
