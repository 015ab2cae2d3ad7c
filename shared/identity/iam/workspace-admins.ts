// Who administers the workspace: the active users bound to
// roles/workspaceAdmin by a binding still in force. The workspace must always
// keep one (contract §5.1, §6.4).
import type { CommonQueryMethods } from "slonik";
import { activeLoginIds } from "../user/user.store.ts";
import { isBindingActive } from "./binding-condition.ts";
import type { StoredBinding } from "./iam-policy.store.ts";
import { memberLoginId } from "./members.ts";

export const ADMIN_ROLE = "roles/workspaceAdmin";
/** Every user is bound to it at creation (contract §18.4). */
export const MEMBER_ROLE = "roles/workspaceMember";

/** The active administrators among `bindings`, leaving out `except`. */
export async function activeAdmins(db: CommonQueryMethods, bindings: readonly StoredBinding[], except?: string): Promise<Set<string>> {
  const now = new Date();
  const named = bindings
    .filter((b) => b.role === ADMIN_ROLE && isBindingActive(b.condition, now))
    .flatMap((b) => b.members.map(memberLoginId))
    .filter((id): id is string => id !== undefined && id !== except);
  return named.length === 0 ? new Set() : activeLoginIds(db, named);
}
