// SSO_GROUP_MAPPING at sign-in (contract §7.12, §4.8): the roles the
// mapping grants for the groups the identity provider reports become the
// user's bindings at each mapped scope. The bindings the mapping manages are
// tagged by their condition's title, "SSO_GROUP_MAPPING idps/<id>" (a
// condition without an expression, so it always holds), one binding per role
// naming the user alone; each sign-in through that provider replaces them,
// and leaves every other binding as it is. Changes are audited as
// bb.role.assign / bb.role.revoke like any policy write.
import { AuditAction, type CallAudit, SYSTEM_ACTOR } from "../../governance/index.ts";
import type { SsoGroupMappingSetting } from "../../gen/svc/store/setting_integrations_pb.js";
import { WORKSPACE } from "../iam/authorize.ts";
import { lockPolicy, replacePolicy, scopesWithBinding, type StoredBinding } from "../iam/iam-policy.store.ts";
import { userMember } from "../iam/members.ts";
import { validateBindings } from "../iam/policy-validation.ts";
import { activeAdmins, ADMIN_ROLE } from "../iam/workspace-admins.ts";
import { failedPrecondition } from "../../platform/index.ts";
import { readSetting, type SettingReader } from "../../governance/index.ts";

const SETTING = "SSO_GROUP_MAPPING";

/** The condition title of the bindings the mapping manages for one provider. */
function mappingTag(idpName: string): string {
  return `${SETTING} ${idpName}`;
}

/** Replaces the user's mapped bindings from `groups`, the groups `idpName` reported at this sign-in. */
export async function applyGroupMapping(audit: CallAudit, settings: SettingReader, idpName: string, loginId: string, groups: readonly string[]): Promise<void> {
  const setting = await readSetting(settings, SETTING);
  const wanted = mappedRoles(setting, idpName, groups);
  const member = userMember(loginId);
  const tag = mappingTag(idpName);
  // The scopes to grant at, and those holding a binding this mapping made for the user: no other policy is locked.
  const tagged = { members: [member] as [string], condition: { title: tag } };
  const scopes = new Set([...wanted.keys(), ...(await scopesWithBinding(audit.tx, tagged))]);
  // The workspace policy first (a new user's membership has locked it already), then projects in
  // order: concurrent sign-ins take the policy locks in one order.
  const ordered = [...scopes].sort((a, b) => Number(b === WORKSPACE) - Number(a === WORKSPACE) || a.localeCompare(b));
  for (const scope of ordered) await replaceMapped(audit, scope, member, tag, wanted.get(scope) ?? new Map());
}

/** scope → role → the groups that grant it. */
function mappedRoles(setting: SsoGroupMappingSetting, idpName: string, groups: readonly string[]): Map<string, Map<string, string[]>> {
  const reported = new Set(groups);
  const wanted = new Map<string, Map<string, string[]>>();
  for (const mapping of setting.mappings) {
    if (mapping.idp !== idpName || !reported.has(mapping.group ?? "")) continue;
    for (const binding of mapping.bindings) {
      const roles = wanted.get(binding.scope!) ?? new Map<string, string[]>();
      roles.set(binding.role!, [...(roles.get(binding.role!) ?? []), mapping.group!]);
      wanted.set(binding.scope!, roles);
    }
  }
  return wanted;
}

async function replaceMapped(audit: CallAudit, scope: string, member: string, tag: string, roles: Map<string, string[]>): Promise<void> {
  const policy = await lockPolicy(audit.tx, scope);
  const managed = (b: StoredBinding) => b.condition?.title === tag && b.members.length === 1 && b.members[0] === member;
  const before = policy.bindings.filter(managed);
  const after = await mappedBindings(audit, scope, member, tag, roles);
  if (JSON.stringify(before) === JSON.stringify(after)) return;
  const bindings = [...policy.bindings.filter((b) => !managed(b)), ...after];
  if (scope === WORKSPACE && (await activeAdmins(audit.tx, bindings)).size === 0) {
    throw failedPrecondition(`${SETTING} would leave the workspace without an active user bound to ${ADMIN_ROLE}; sign in with another administrator and fix the mapping`);
  }
  await replacePolicy(audit.tx, scope, bindings, SYSTEM_ACTOR);
  const rolesOf = (list: readonly StoredBinding[]) => new Set(list.map((b) => b.role));
  const [old, now] = [rolesOf(before), rolesOf(after)];
  const record = (action: string) => (role: string) => ({ action, resource: scope, detail: { member, role, grantedBy: tag } });
  audit.extra.push(...[...now].filter((r) => !old.has(r)).map(record(AuditAction.roleAssign)));
  audit.extra.push(...[...old].filter((r) => !now.has(r)).map(record(AuditAction.roleRevoke)));
}

/** The tagged bindings to hold at the scope, roles checked like any binding. */
async function mappedBindings(audit: CallAudit, scope: string, member: string, tag: string, roles: Map<string, string[]>): Promise<StoredBinding[]> {
  const entries = [...roles].sort(([a], [b]) => a.localeCompare(b));
  let checked: StoredBinding[];
  try {
    checked = await validateBindings(audit.tx, entries.map(([role]) => ({ role, members: [member] })), undefined, { fieldPrefix: `${SETTING} at ${scope}` });
  } catch (error) {
    throw failedPrecondition(`${SETTING} cannot be applied: ${(error as Error).message}`);
  }
  return checked.map((binding, i) => ({
    ...binding,
    condition: { expression: "", title: tag, description: `granted at sign-in for the groups ${entries[i]![1].join(", ")}; replaced at the next sign-in` },
  }));
}
