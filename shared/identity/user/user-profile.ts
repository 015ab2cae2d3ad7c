// Writing a user's title and e-mail, by UpdateUser or by a single sign-on
// that brings a new title or address: a changed e-mail is held to the
// workspace's domains first (identity-domain.ts).
import type { CommonQueryMethods } from "slonik";
import { checkUserDomain } from "./identity-domain.ts";
import { updateProfile, type UserRow } from "./user.store.ts";

export async function writeUserProfile(tx: CommonQueryMethods, user: UserRow, profile: { title: string; email: string }): Promise<void> {
  if (profile.email !== user.email) await checkUserDomain(tx, { ...user, email: profile.email });
  await updateProfile(tx, user.id, profile);
}
