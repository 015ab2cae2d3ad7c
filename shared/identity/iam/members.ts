// Member strings of IAM bindings (contract §6.4): user:login_id=<id>,
// group:<id> and allUsers (everyone signed in).
export const ALL_USERS = "allUsers";

const USER_PREFIX = "user:login_id=";
const GROUP_PREFIX = "group:";

export function userMember(loginId: string): string {
  return `${USER_PREFIX}${loginId}`;
}

export function groupMember(groupId: string): string {
  return `${GROUP_PREFIX}${groupId}`;
}

/** The login id of a user member, or undefined for any other member. */
export function memberLoginId(member: string): string | undefined {
  return member.startsWith(USER_PREFIX) ? member.slice(USER_PREFIX.length) : undefined;
}

/** The group id of a group member, or undefined for any other member. */
export function memberGroupId(member: string): string | undefined {
  return member.startsWith(GROUP_PREFIX) ? member.slice(GROUP_PREFIX.length) : undefined;
}

/** Who a permission check is about: a signed-in user. */
export interface IamSubject {
  loginId: string;
}

/** The subject with the groups it belongs to at the time of one check. */
export interface MemberSubject extends IamSubject {
  groupIds: ReadonlySet<string>;
}

export function memberIncludes(member: string, subject: MemberSubject): boolean {
  if (member === ALL_USERS) return true;
  const groupId = memberGroupId(member);
  return groupId === undefined ? memberLoginId(member) === subject.loginId : subject.groupIds.has(groupId);
}

/** True when a binding names any group, so a check must know the subject's groups. */
export function namesGroup(members: readonly string[]): boolean {
  return members.some((m) => m.startsWith(GROUP_PREFIX));
}
