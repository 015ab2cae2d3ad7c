// SQL of a password sign-in's first read (contract §4.2, §4.4, §5.1): what it
// needs to know about a login id, in one statement instead of one per table.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import { require2faGroupMembership } from "../group/group-member.store.ts";
import { userColumns, userRow, type UserRow } from "../user/user.store.ts";
import { failureRow, type LoginFailureRow } from "./login-failure.store.ts";

export interface SignInFacts {
  /** The principal with the login id, in any state. */
  user: UserRow | undefined;
  /** The login id's consecutive failures (it may have some whether or not a principal has it). */
  failure: LoginFailureRow | undefined;
  /** The login id belongs to a group that requires a second factor. */
  inRequire2faGroup: boolean;
}

const factsRow = z
  .object({ user: userRow.nullable(), failure: failureRow.nullable(), in_require_2fa_group: z.boolean() })
  .transform((r) => ({ user: r.user ?? undefined, failure: r.failure ?? undefined, inRequire2faGroup: r.in_require_2fa_group }));

export async function findSignInFacts(db: CommonQueryMethods, loginId: string): Promise<SignInFacts> {
  return db.one(sql.prepared("sign_in.facts", factsRow)`
    select (select to_jsonb(u) from (select ${userColumns} from principal where login_id = ${loginId}) u) as user,
           (select to_jsonb(f) from (select failure_count, locked_until from login_failure where login_id = ${loginId}) f) as failure,
           ${require2faGroupMembership(loginId)} as in_require_2fa_group`);
}
