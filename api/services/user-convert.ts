// Stored users ⇄ svc.v1 User.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { userName } from "../../shared/auth/principal.ts";
import type { UserRow } from "../../shared/user/user.store.ts";
import { State, UserSchema, UserSource, UserType, type User } from "../../shared/gen/svc/v1/user_service_pb.js";

const optionalTime = (date: Date | null | undefined) => (date ? timestampFromDate(date) : undefined);

export function toUser(row: UserRow, lockedUntil?: Date): User {
  return create(UserSchema, {
    name: userName(row.loginId),
    loginId: row.loginId,
    email: row.email,
    title: row.title,
    type: UserType[row.type],
    state: State[row.state],
    source: UserSource[row.source],
    createTime: timestampFromDate(row.createTime),
    lastLoginTime: optionalTime(row.lastLoginTime),
    lastChangePasswordTime: optionalTime(row.passwordChangeTime),
    locked: lockedUntil !== undefined,
    lockedUntil: optionalTime(lockedUntil),
  });
}
