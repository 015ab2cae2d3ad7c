// Checks a binding set before it is stored (contract §6.4): existing roles
// (predefined or custom), members in the canonical shapes naming existing
// users and groups, expiries in the future and within maximum_role_expiration.
// Roles and members come out canonical.
import type { CommonQueryMethods } from "slonik";
import { invalidArgument, normalizeLoginId, quoted } from "../../platform/index.ts";
import { activeLoginIds } from "../user/user.store.ts";
import { conditionExpiry } from "./binding-condition.ts";
import { lockReferences, type BindingReferences } from "./binding-references.ts";
import type { StoredBinding } from "./iam-policy.store.ts";
import { ALL_USERS, memberGroupId, memberLoginId, userMember } from "./members.ts";
import { predefinedRole } from "./predefined-roles.ts";
import { ROLE_PREFIX, roleName } from "./roles.ts";

export interface BindingInput {
  role: string;
  members: readonly string[];
  condition?: { expression: string; title: string; description: string } | undefined;
}

const MEMBER_SHAPES = "user:login_id=<login_id>, group:<group_id> or allUsers";

export interface ValidationOptions {
  /** Names the bindings in errors (default policy.bindings). */
  fieldPrefix?: string;
  /** The stored bindings: one written back unchanged keeps its expiry even when it has passed. */
  existing?: readonly StoredBinding[];
}

export async function validateBindings(
  db: CommonQueryMethods,
  bindings: readonly BindingInput[],
  maxExpirationMs: number | undefined,
  options: ValidationOptions = {},
): Promise<StoredBinding[]> {
  const now = Date.now();
  const fieldPrefix = options.fieldPrefix ?? "policy.bindings";
  const unchanged = new Set((options.existing ?? []).map(bindingKey));
  const known = await lockReferences(db, bindings.map((b) => b.role), bindings.flatMap((b) => b.members));
  const stored = bindings.map((binding, i) => {
    const field = `${fieldPrefix}[${i}]`;
    const role = canonicalRole(binding.role, known, `${field}.role`);
    const members = [...new Set(binding.members.map((m, j) => canonicalMember(m, known, `${field}.members[${j}]`)))];
    if (members.length === 0) throw invalidArgument(`${field}.members: a binding needs at least one member`);
    const expression = binding.condition?.expression.trim() ?? "";
    // A condition without an expression always holds; its title and description
    // are kept (SSO_GROUP_MAPPING tags the bindings it manages with its title).
    const { title = "", description = "" } = binding.condition ?? {};
    if (!expression) return title || description ? { role, members, condition: { expression, title, description } } : { role, members };
    const expiry = conditionExpiry(expression, `${field}.condition.expression`);
    if (!unchanged.has(bindingKey({ role, members, condition: { expression, title: "", description: "" } }))) {
      checkExpiry(expiry, now, maxExpirationMs, `${field}.condition.expression`);
    }
    return { role, members, condition: { expression, title: binding.condition?.title ?? "", description: binding.condition?.description ?? "" } };
  });
  await assertUsersExist(db, stored, fieldPrefix);
  return stored;
}

/** Role, sorted members and condition: what makes two bindings the same grant. */
function bindingKey(binding: StoredBinding): string {
  return JSON.stringify([binding.role, [...binding.members].sort(), binding.condition?.expression.trim() ?? ""]);
}

/**
 * roles/<id> as stored, for a role named in any letter case; undefined when
 * no predefined or custom role has that id. A custom role stays share-locked
 * until the transaction ends.
 */
export async function findCanonicalRole(db: CommonQueryMethods, role: string): Promise<string | undefined> {
  return storedRoleName(role, await lockReferences(db, [role], []));
}

function canonicalRole(role: string, known: BindingReferences, field: string): string {
  const name = storedRoleName(role, known);
  if (!name) throw invalidArgument(`${field}: unknown role ${quoted(role)}; use roles/<role_id> of a predefined or custom role, e.g. roles/workspaceMember`);
  return name;
}

function storedRoleName(role: string, known: BindingReferences): string | undefined {
  const id = role.startsWith(ROLE_PREFIX) ? role.slice(ROLE_PREFIX.length) : undefined;
  const storedId = id === undefined ? undefined : (predefinedRole(id)?.id ?? known.customRoles.get(id.toLowerCase()));
  return storedId === undefined ? undefined : roleName(storedId);
}

function canonicalMember(member: string, known: BindingReferences, field: string): string {
  if (member === ALL_USERS) return member;
  const groupId = memberGroupId(member);
  if (groupId !== undefined) {
    if (!known.groups.has(groupId)) throw invalidArgument(`${field}: group ${quoted(groupId)} does not exist; accepted shapes: ${MEMBER_SHAPES}`);
    return member;
  }
  const loginId = memberLoginId(member);
  const normalized = loginId === undefined ? undefined : normalizeLoginId(loginId);
  if (!normalized) throw invalidArgument(`${field}: ${quoted(member)} is not a member; accepted shapes: ${MEMBER_SHAPES}`);
  return userMember(normalized);
}

function checkExpiry(expiry: Date, now: number, maxMs: number | undefined, field: string): void {
  if (expiry.getTime() <= now) throw invalidArgument(`${field}: the expiry ${expiry.toISOString()} has already passed`);
  if (maxMs !== undefined && expiry.getTime() > now + maxMs) {
    throw invalidArgument(`${field}: the expiry ${expiry.toISOString()} is later than maximum_role_expiration allows (${new Date(now + maxMs).toISOString()})`);
  }
}

async function assertUsersExist(db: CommonQueryMethods, bindings: readonly StoredBinding[], field: string): Promise<void> {
  const named = [...new Set(bindings.flatMap((b) => b.members.map(memberLoginId).filter((id): id is string => id !== undefined)))];
  const known = await activeLoginIds(db, named);
  const missing = named.filter((id) => !known.has(id));
  if (missing.length > 0) {
    throw invalidArgument(`${field}: unknown users ${missing.map(quoted).join(", ")}; accepted shapes: ${MEMBER_SHAPES}`);
  }
}
