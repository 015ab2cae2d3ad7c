// The user a filter value names (contract §2.3): `me` and `users/me` stand
// for the caller; `alice` and `users/alice` for that user.
import { parseLoginId, userName } from "../names.ts";

/** The user's resource name; `caller` is the caller's (users/<login_id>). */
export function userFilterValue(value: string, caller: string, field: string): string {
  if (value === "me" || value === "users/me") return caller;
  const loginId = value.startsWith("users/") ? value.slice("users/".length) : value;
  return userName(parseLoginId(loginId, `filter ${field} "${value}"`));
}
