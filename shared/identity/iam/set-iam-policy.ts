// Writing an IAM policy (contract §6.4): the whole binding set is replaced
// under the policy's row lock, a stale etag is refused, every member and role
// must exist, expiries respect maximum_role_expiration, the workspace keeps an
// active administrator, and each (member, role) change is audited.
import { AuditAction, type CallAudit } from "../../governance/index.ts";
import { aborted, failedPrecondition } from "../../platform/index.ts";
import { WORKSPACE } from "./authorize.ts";
import { lockPolicy, replacePolicy, type StoredBinding, type StoredPolicy } from "./iam-policy.store.ts";
import { validateBindings, type BindingInput } from "./policy-validation.ts";
import { activeAdmins, ADMIN_ROLE } from "./workspace-admins.ts";

export interface PolicyWrite {
  scope: string;
  bindings: readonly BindingInput[];
  /** The etag the writer read; empty writes unconditionally. */
  etag: string;
  maximumRoleExpirationMs: number | undefined;
}

export async function setIamPolicy(audit: CallAudit, actor: string, write: PolicyWrite): Promise<StoredPolicy> {
  const tx = audit.tx;
  audit.resource = write.scope;
  const current = await lockPolicy(tx, write.scope);
  const bindings = await validateBindings(tx, write.bindings, write.maximumRoleExpirationMs, { existing: current.bindings });
  if (write.etag && write.etag !== current.etag) {
    throw aborted(`the IAM policy of ${write.scope} changed since it was read (etag ${write.etag} is stale); read it again and retry`);
  }
  if (write.scope === WORKSPACE) await assertActiveAdmin(tx, bindings);
  const updated = await replacePolicy(tx, write.scope, bindings, actor);
  audit.extra.push(...roleChanges(current.bindings, bindings, write.scope));
  return updated;
}

async function assertActiveAdmin(tx: CallAudit["tx"], bindings: readonly StoredBinding[]): Promise<void> {
  if ((await activeAdmins(tx, bindings)).size === 0) {
    throw failedPrecondition(`the workspace policy must keep at least one active user bound to ${ADMIN_ROLE}`);
  }
}

function roleChanges(before: readonly StoredBinding[], after: readonly StoredBinding[], scope: string) {
  const pairs = (bindings: readonly StoredBinding[]) => new Set(bindings.flatMap((b) => b.members.map((m) => `${m}\n${b.role}`)));
  const old = pairs(before);
  const now = pairs(after);
  const change = (action: string) => (pair: string) => {
    const [member, role] = pair.split("\n");
    return { action, resource: scope, detail: { member, role } };
  };
  return [
    ...[...now].filter((p) => !old.has(p)).map(change(AuditAction.roleAssign)),
    ...[...old].filter((p) => !now.has(p)).map(change(AuditAction.roleRevoke)),
  ];
}
