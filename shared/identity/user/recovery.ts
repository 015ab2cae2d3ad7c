// Local recovery of a lost administrator (contract §4.7), run on the store by
// the server command, with an audit record by the system actor.
import { AuditAction, recordAudit, SYSTEM_ACTOR } from "../../governance/index.ts";
import { type Db, notFound, userName, withTransaction } from "../../platform/index.ts";
import { unlock } from "../auth/lockout.ts";
import { generatePassword } from "./generated-password.ts";
import { resetMfa } from "./mfa-reset.ts";
import { hashPassword } from "./password-hash.ts";
import { replacePassword } from "./replace-password.ts";
import { findUserByLoginId } from "./user.store.ts";

/** Sets a generated one-time password (to be changed at sign-in) in place of the old one (replace-password.ts) and lifts a lock. */
export async function resetPasswordLocally(db: Db, loginId: string): Promise<string> {
  const password = generatePassword();
  const hash = await hashPassword(password);
  await withTransaction(db, async (tx) => {
    const user = await findUserByLoginId(tx, loginId);
    if (!user) throw notFound(`user "${loginId}" does not exist`);
    await replacePassword(tx, user, hash, { requireReset: true });
    await unlock(tx, loginId);
    await recordAudit(tx, { actor: SYSTEM_ACTOR, action: AuditAction.passwordReset, resource: userName(loginId), detail: { via: "server command" } });
  });
  return password;
}

/** Clears the second factor and its recovery codes and ends all sessions; answers whether one was enabled. */
export async function resetMfaLocally(db: Db, loginId: string): Promise<boolean> {
  return withTransaction(db, async (tx) => {
    const { wasEnabled } = await resetMfa(tx, loginId);
    await recordAudit(tx, { actor: SYSTEM_ACTOR, action: AuditAction.mfaReset, resource: userName(loginId), detail: { via: "server command", wasEnabled } });
    return wasEnabled;
  });
}

export async function unlockLocally(db: Db, loginId: string): Promise<boolean> {
  return withTransaction(db, async (tx) => {
    const wasLocked = await unlock(tx, loginId);
    await recordAudit(tx, { actor: SYSTEM_ACTOR, action: AuditAction.userUnlock, resource: userName(loginId), detail: { via: "server command", wasLocked } });
    return wasLocked;
  });
}
