// The members a group write names (contract §5.2): user:login_id=<id> each
// once, naming an active user; OWNER or MEMBER (MEMBER when not given).
import type { CommonQueryMethods } from "slonik";
import { memberLoginId } from "../iam/members.ts";
import { invalidArgument, normalizeLoginId, quoted } from "../../platform/index.ts";
import { activeLoginIds } from "../user/user.store.ts";
import type { GroupMembership, GroupRole } from "./group-member.store.ts";

export interface MemberInput {
  member: string;
  role: GroupRole | undefined;
}

/** The memberships, sorted by login id; throws invalid_argument naming the first bad entry. */
export async function checkedMembers(db: CommonQueryMethods, inputs: readonly MemberInput[], field: string): Promise<GroupMembership[]> {
  const seen = new Set<string>();
  const members = inputs.map((input, i) => {
    const raw = memberLoginId(input.member);
    const loginId = raw === undefined ? undefined : normalizeLoginId(raw);
    if (!loginId) throw invalidArgument(`${field}[${i}].member: ${quoted(input.member)} is not a user; use user:login_id=<login_id>`);
    if (seen.has(loginId)) throw invalidArgument(`${field}[${i}].member: user ${quoted(loginId)} is listed twice`);
    seen.add(loginId);
    return { loginId, role: input.role ?? "MEMBER" };
  });
  const known = await activeLoginIds(db, [...seen]);
  const missing = [...seen].filter((id) => !known.has(id));
  if (missing.length > 0) throw invalidArgument(`${field}: unknown users ${missing.map(quoted).join(", ")}`);
  return members.sort((a, b) => (a.loginId < b.loginId ? -1 : 1));
}
