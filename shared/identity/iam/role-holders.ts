// Who holds a role, for telling them (contract §16.2: an approval step's role
// holders are asked): the users a binding in force names at the project or at
// the workspace, directly or through a group, with the e-mail they can be
// reached at. allUsers is not expanded: a role granted to everyone signed in
// names nobody in particular to notify.
import type { CommonQueryMethods } from "slonik";
import { membersOf } from "../group/group-member.store.ts";
import { contactsOf, type Contact } from "../user/user.store.ts";
import { WORKSPACE } from "./authorize.ts";
import { isBindingActive } from "./binding-condition.ts";
import { findPolicies } from "./iam-policy.store.ts";
import { memberGroupId, memberLoginId } from "./members.ts";

export type { Contact };

/** The active end users holding one of `roles` at `scope` (a project, or the workspace), with their e-mail. */
export async function roleHolders(db: CommonQueryMethods, roles: readonly string[], scope: string, now = new Date()): Promise<Contact[]> {
  const policies = await findPolicies(db, scope === WORKSPACE ? [WORKSPACE] : [WORKSPACE, scope]);
  const loginIds = new Set<string>();
  const groupIds = new Set<string>();
  for (const binding of policies.flatMap((p) => p.bindings)) {
    if (!roles.includes(binding.role) || !isBindingActive(binding.condition, now)) continue;
    for (const member of binding.members) {
      const loginId = memberLoginId(member);
      const groupId = memberGroupId(member);
      if (loginId !== undefined) loginIds.add(loginId);
      if (groupId !== undefined) groupIds.add(groupId);
    }
  }
  if (groupIds.size > 0) for (const members of (await membersOf(db, [...groupIds])).values()) for (const m of members) loginIds.add(m.loginId);
  return contactsOf(db, [...loginIds]);
}
