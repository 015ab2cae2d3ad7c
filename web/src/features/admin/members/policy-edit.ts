// Edits of an IAM policy's bindings (contract §6.4) before it is written back
// whole: a grant joins the binding of the same role and expiry, a revocation
// removes one member from one binding, and an emptied binding goes.
import { create } from "@bufbuild/protobuf";
import { type Binding, BindingSchema, ExprSchema } from "@gen/svc/v1/iam_policy_pb.js";

/** The member shapes the server accepts: a user by login id, a group, or everyone signed in. */
export function memberOf(kind: "user" | "group" | "allUsers", id: string): string {
  if (kind === "allUsers") return "allUsers";
  return kind === "user" ? `user:login_id=${id.trim().toLowerCase()}` : `group:${id.trim()}`;
}

/** "user:login_id=ann" → "ann", "group:dba" → "group dba". */
export function memberLabel(member: string): string {
  if (member.startsWith("user:login_id=")) return member.slice("user:login_id=".length);
  if (member.startsWith("group:")) return `group ${member.slice("group:".length)}`;
  return member === "allUsers" ? "everyone signed in" : member;
}

/** The expiry condition of a grant until `until` (contract §6.4). */
export function expiryExpression(until: Date): string {
  return `request.time < timestamp("${until.toISOString()}")`;
}

export function grant(bindings: readonly Binding[], member: string, role: string, until?: Date): Binding[] {
  const expression = until ? expiryExpression(until) : "";
  const same = bindings.findIndex((b) => b.role === role && (b.condition?.expression ?? "") === expression);
  if (same >= 0) {
    const binding = bindings[same]!;
    if (binding.members.includes(member)) return [...bindings];
    return bindings.map((b, i) => (i === same ? create(BindingSchema, { ...b, members: [...b.members, member] }) : b));
  }
  const condition = until ? create(ExprSchema, { expression, title: `until ${until.toISOString()}` }) : undefined;
  return [...bindings, create(BindingSchema, { role, members: [member], condition })];
}

export function revoke(bindings: readonly Binding[], index: number, member: string): Binding[] {
  return bindings
    .map((b, i) => (i === index ? create(BindingSchema, { ...b, members: b.members.filter((m) => m !== member) }) : b))
    .filter((b) => b.members.length > 0);
}
