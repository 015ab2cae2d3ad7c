// Test factories for users, written through the shared store functions.
import type { CommonQueryMethods } from "slonik";
import { hashPassword } from "../../shared/identity/user/password-hash.ts";
import { insertUser, type UserRow } from "../../shared/identity/user/user.store.ts";

export const ADMIN = { loginId: "admin", password: "Bootstrap-Pass-1" };
export const STRONG_PASSWORD = "Correct-Horse-9-Battery";

export async function makeUser(db: CommonQueryMethods, loginId: string, password = STRONG_PASSWORD): Promise<UserRow> {
  const user = await insertUser(db, {
    loginId,
    email: `${loginId}@example.com`,
    title: loginId,
    type: "END_USER",
    source: "LOCAL",
    passwordHash: await hashPassword(password),
    requireResetPassword: false,
  });
  if (!user) throw new Error(`user "${loginId}" already exists`);
  return user;
}
