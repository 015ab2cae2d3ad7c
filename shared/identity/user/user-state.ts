// DeleteUser and UndeleteUser (contract §5.1): a soft delete that ends every
// session at once; the last active workspace administrator stays.
import { revokePrincipalSessions } from "../auth/session.store.ts";
import { WORKSPACE } from "../iam/authorize.ts";
import { lockPolicy } from "../iam/iam-policy.store.ts";
import { activeAdmins } from "../iam/workspace-admins.ts";
import { failedPrecondition, notFound, type Tx } from "../../platform/index.ts";
import { findUserByLoginId, setUserState, type UserRow } from "./user.store.ts";

export async function deleteUser(tx: Tx, loginId: string): Promise<void> {
  const user = await existing(tx, loginId);
  if (user.state === "DELETED") return;
  // The policy row lock makes deletes and policy writes take turns, so two
  // administrators deleted at once cannot each count the other as remaining.
  const policy = await lockPolicy(tx, WORKSPACE);
  const admins = await activeAdmins(tx, policy.bindings);
  if (admins.has(loginId) && admins.size === 1) {
    throw failedPrecondition(`"${loginId}" is the last active workspace administrator and cannot be deleted`);
  }
  await setUserState(tx, user.id, "DELETED");
  await revokePrincipalSessions(tx, user.id);
}

export async function undeleteUser(tx: Tx, loginId: string): Promise<UserRow> {
  const user = await existing(tx, loginId);
  if (user.state === "ACTIVE") throw failedPrecondition(`user "${loginId}" is not deleted`);
  await setUserState(tx, user.id, "ACTIVE");
  return (await findUserByLoginId(tx, loginId))!;
}

async function existing(tx: Tx, loginId: string): Promise<UserRow> {
  const user = await findUserByLoginId(tx, loginId);
  if (!user) throw notFound(`user "${loginId}" does not exist`);
  return user;
}
