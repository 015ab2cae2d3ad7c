// A service account's API key (contract §4.3, §5.1): issued at creation and
// on rotation (UpdateUser regenerate_service_key), answered once, stored as
// its hash; a new key replaces the old one at once.
import type { CommonQueryMethods } from "slonik";
import { newServiceKey, tokenHash } from "../auth/tokens.ts";
import { setServiceKey } from "./user.store.ts";

/** Gives the account a new key; answers it, to be shown once. */
export async function issueServiceKey(db: CommonQueryMethods, principalId: number): Promise<string> {
  const key = newServiceKey();
  await setServiceKey(db, principalId, tokenHash(key));
  return key;
}
