// Member strings of IAM bindings (contract §6.4): user:login_id=<id>,
// group:<id> and allUsers (everyone signed in).
export const ALL_USERS = "allUsers";

const USER_PREFIX = "user:login_id=";

export function userMember(loginId: string): string {
  return `${USER_PREFIX}${loginId}`;
}

/** The login id of a user member, or undefined for any other member. */
export function memberLoginId(member: string): string | undefined {
  return member.startsWith(USER_PREFIX) ? member.slice(USER_PREFIX.length) : undefined;
}

export interface IamSubject {
  loginId: string;
}

export function memberIncludes(member: string, subject: IamSubject): boolean {
  return member === ALL_USERS || memberLoginId(member) === subject.loginId;
}
