// Signing in for tests: a user's access token, and the first administrator's
// after the password change every bootstrap admin must make first.
import assert from "node:assert/strict";
import type { restClient } from "./rest.ts";
import { ADMIN, STRONG_PASSWORD } from "./users.ts";

type Rest = ReturnType<typeof restClient>;

export async function signIn(rest: Rest, loginId: string, password = STRONG_PASSWORD): Promise<string> {
  const reply = await rest<{ accessToken: string }>("POST", "/v1/auth/login", { body: { loginId, password } });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body.accessToken;
}

/** The bootstrap administrator (test/helpers/users.ts ADMIN), its password changed to STRONG_PASSWORD. */
export async function signInFirstAdmin(rest: Rest): Promise<string> {
  const first = await signIn(rest, ADMIN.loginId, ADMIN.password);
  const changed = await rest("PATCH", `/v1/users/${ADMIN.loginId}`, {
    token: first,
    body: { user: { password: STRONG_PASSWORD }, updateMask: "password", currentPassword: ADMIN.password },
  });
  assert.equal(changed.status, 200, JSON.stringify(changed.body));
  return signIn(rest, ADMIN.loginId);
}
