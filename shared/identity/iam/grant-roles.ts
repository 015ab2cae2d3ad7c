// Granting roles to one member outside SetIamPolicy (CreateUser's workspace
// roles, contract §6.5; a new project's owner, §9.1): added to the scope's
// policy under its row lock,
// validated like any binding, each grant audited as bb.role.assign. A role
// listed twice with the same expiry is granted (and recorded) once.
import { AuditAction, type CallAudit } from "../../governance/index.ts";
import { expiryCondition } from "./binding-condition.ts";
import { lockPolicy, replacePolicy, type StoredBinding } from "./iam-policy.store.ts";
import { validateBindings } from "./policy-validation.ts";

export interface RoleGrant {
  role: string;
  expiresAt?: Date | undefined;
}

export async function grantRoles(
  audit: CallAudit,
  scope: string,
  member: string,
  grants: readonly RoleGrant[],
  maximumRoleExpirationMs: number | undefined,
  updater: string,
): Promise<void> {
  if (grants.length === 0) return;
  const validated = await validateBindings(
    audit.tx,
    grants.map((g) => ({
      role: g.role,
      members: [member],
      condition: g.expiresAt ? { expression: expiryCondition(g.expiresAt), title: "expiry", description: "" } : undefined,
    })),
    maximumRoleExpirationMs,
    { fieldPrefix: "roles" },
  );
  const added = distinct(validated);
  const policy = await lockPolicy(audit.tx, scope);
  await replacePolicy(audit.tx, scope, [...policy.bindings, ...added], updater);
  for (const binding of added) {
    audit.extra.push({ action: AuditAction.roleAssign, resource: scope, detail: { member, role: binding.role } });
  }
}

/** The bindings once each by role and expiry (roles are canonical after validation). */
function distinct(bindings: readonly StoredBinding[]): StoredBinding[] {
  const seen = new Map<string, StoredBinding>();
  for (const binding of bindings) seen.set(JSON.stringify([binding.role, binding.condition?.expression ?? ""]), binding);
  return [...seen.values()];
}
