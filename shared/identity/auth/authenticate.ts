// Resolving a bearer credential to its principal: a session's access token,
// or a service account's API key (contract §4.3).
import type { CommonQueryMethods } from "slonik";
import { findByServiceKey } from "../user/user.store.ts";
import { userName } from "../../platform/index.ts";
import type { Principal } from "./principal.ts";
import { authenticateAccessToken, type SessionPolicy, type SessionTokens, storedSessionTokens } from "./sessions.ts";
import { isServiceKey, tokenHash } from "./tokens.ts";

/** `tokens` reads session tokens (the access cache's in the API; the store's by default). */
export async function authenticate(
  db: CommonQueryMethods,
  token: string,
  policy: SessionPolicy,
  tokens: SessionTokens = storedSessionTokens(db),
): Promise<Principal | undefined> {
  if (!isServiceKey(token)) return authenticateAccessToken(tokens, token, policy);
  const account = await findByServiceKey(db, tokenHash(token));
  return account && { name: userName(account.loginId), id: account.id, loginId: account.loginId };
}
