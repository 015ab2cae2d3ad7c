// SQL of a password sign-in's first statement (contract §4.2, §4.4, §4.5,
// §5.1): the request counted against the client's rate limit and, when it
// was, what the sign-in needs to know about the login id, in one round trip
// instead of one per table and one for the counter.
import { sql } from "slonik";
import { z } from "zod";
import type { Db } from "../../platform/index.ts";
import { require2faGroupMembership } from "../group/group-member.store.ts";
import { userColumns, userRow, type UserRow } from "../user/user.store.ts";
import { failureRow, type LoginFailureRow } from "./login-failure.store.ts";
import { hitTaken, windowRow, type Hit, type WindowState } from "./rate-limit.store.ts";

export interface SignInFacts {
  /** The principal with the login id, in any state. */
  user: UserRow | undefined;
  /** The login id's consecutive failures (it may have some whether or not a principal has it). */
  failure: LoginFailureRow | undefined;
  /** The login id belongs to a group that requires a second factor. */
  inRequire2faGroup: boolean;
}

/** The rate limit's window; the facts only when the hit was counted (a refused request reads nothing). */
export interface CountedSignIn {
  window: WindowState;
  facts: SignInFacts | undefined;
}

const countedRow = windowRow
  .extend({ user: userRow.nullable(), failure: failureRow.nullable(), in_require_2fa_group: z.boolean().nullable() })
  .transform(({ user, failure, in_require_2fa_group, ...window }) => ({
    window,
    facts: window.counted ? { user: user ?? undefined, failure: failure ?? undefined, inRequire2faGroup: in_require_2fa_group === true } : undefined,
  }));

/**
 * Takes the hit on `db`, a pool (the hit commits on its own, as takeHit's
 * does), and reads the facts in the same statement. Read outside the call's
 * transaction, they are what its first read would see: under READ COMMITTED
 * each statement reads the latest commits, and the call has written nothing yet.
 */
export async function takeHitWithSignInFacts(db: Db, hit: Hit, loginId: string): Promise<CountedSignIn> {
  return db.one(sql.prepared("sign_in.counted_facts", countedRow)`
    select h.hits, h.oldest, h.now, h.counted,
           case when h.counted then (select to_jsonb(u) from (select ${userColumns} from principal where login_id = ${loginId}) u) end as user,
           case when h.counted then (select to_jsonb(f) from (select failure_count, locked_until from login_failure where login_id = ${loginId}) f) end as failure,
           case when h.counted then ${require2faGroupMembership(loginId)} end as in_require_2fa_group
    from ${hitTaken(hit)} h`);
}
