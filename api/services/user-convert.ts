// Stored users ⇄ svc.v1 User.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { groupName, type Principal, type UserRow } from "../../shared/identity/index.ts";
import { quoted, userName } from "../../shared/platform/index.ts";
import { invalidArgument, parseLoginId } from "../../shared/platform/index.ts";
import { State, UserSchema, UserSource, UserType, type User } from "../../shared/gen/svc/v1/user_service_pb.js";

const optionalTime = (date: Date | null | undefined) => (date ? timestampFromDate(date) : undefined);

/** The user as clients see it; `groupIds` are the ids of the groups it belongs to. */
export function toUser(row: UserRow, lockedUntil?: Date, groupIds: readonly string[] = []): User {
  return create(UserSchema, {
    name: userName(row.loginId),
    loginId: row.loginId,
    email: row.email,
    title: row.title,
    type: UserType[row.type],
    state: State[row.state],
    source: UserSource[row.source],
    mfaEnabled: row.mfaEnabled,
    createTime: timestampFromDate(row.createTime),
    lastLoginTime: optionalTime(row.lastLoginTime),
    lastChangePasswordTime: optionalTime(row.passwordChangeTime),
    locked: lockedUntil !== undefined,
    lockedUntil: optionalTime(lockedUntil),
    groups: groupIds.map(groupName),
  });
}

/** The login id of users/<login_id>; users/me means the caller, when there is one. */
export function loginIdOfUserName(name: string, caller?: Principal): string {
  if (!name.startsWith("users/")) throw invalidArgument(`name: ${quoted(name)} is not a user name; use users/<login_id>`);
  const id = name.slice("users/".length);
  return id === "me" && caller ? caller.loginId : parseLoginId(id, "name");
}
