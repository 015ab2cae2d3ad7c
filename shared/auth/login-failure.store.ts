// SQL on login_failure: consecutive sign-in failures per login id.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";

const failureRow = z
  .object({ failure_count: z.number(), locked_until: z.coerce.date().nullable() })
  .transform((r) => ({ failureCount: r.failure_count, lockedUntil: r.locked_until }));

export type LoginFailureRow = z.infer<typeof failureRow>;

export async function findLoginFailure(db: CommonQueryMethods, loginId: string): Promise<LoginFailureRow | undefined> {
  const row = await db.maybeOne(sql.type(failureRow)`select failure_count, locked_until from login_failure where login_id = ${loginId}`);
  return row ?? undefined;
}

/** The row, created when absent, locked until the transaction ends: attempts on one login id take turns. */
export async function lockLoginFailure(db: CommonQueryMethods, loginId: string): Promise<LoginFailureRow> {
  await db.query(sql.unsafe`insert into login_failure (login_id) values (${loginId}) on conflict (login_id) do nothing`);
  return db.one(sql.type(failureRow)`select failure_count, locked_until from login_failure where login_id = ${loginId} for update`);
}

export async function saveLoginFailure(db: CommonQueryMethods, loginId: string, row: LoginFailureRow): Promise<void> {
  await db.query(sql.unsafe`
    update login_failure set failure_count = ${row.failureCount},
      locked_until = ${row.lockedUntil ? sql.timestamp(row.lockedUntil) : null}, update_time = now()
    where login_id = ${loginId}`);
}

/** Forgets the failures of a login id; answers what was stored. */
export async function deleteLoginFailure(db: CommonQueryMethods, loginId: string): Promise<LoginFailureRow | undefined> {
  const row = await db.maybeOne(sql.type(failureRow)`
    delete from login_failure where login_id = ${loginId} returning failure_count, locked_until`);
  return row ?? undefined;
}
