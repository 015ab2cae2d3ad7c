// The per-request reads are named statements (record 0076): each connection
// of the pool prepares them once, and they answer the same on the pool, in a
// transaction, and after a transaction that prepared them was rolled back or
// failed before they could be prepared.
import assert from "node:assert/strict";
import { randomBytes, randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import { sql } from "slonik";
import { z } from "zod";
import { findSessionToken, insertSessionTokens, touchSessionToken } from "../shared/identity/auth/session.store.ts";
import { groupIdsOfUser } from "../shared/identity/group/group-member.store.ts";
import { findPolicies } from "../shared/identity/iam/iam-policy.store.ts";
import { findProject, insertProject } from "../shared/inventory/project/project.store.ts";
import { createDb, type Db } from "../shared/platform/db.ts";
import { adminQuery, createTestDatabase, type TestDatabase } from "./helpers/db.ts";
import { quietLogger } from "./helpers/logger.ts";

const NAMES = ["session_token.find", "session_token.find_for_update", "session_token.touch", "iam_policy.find_by_scopes", "group_member.group_ids_of_user", "project.find", "project.find_for_update"];
const preparedNameRow = z.object({ name: z.string() });
const PROJECT = { title: "Named", key: "NAMED", labels: {}, allowSelfApproval: undefined, parallelTasksPerRollout: 0, lockTimeoutMs: 0, statementTimeoutMs: 0, requirePlanCheckSuccess: false };

describe("named per-request reads", () => {
  let database: TestDatabase;
  /** One connection, so that every call after the first finds its statement prepared. */
  let db: Db;
  const hash = randomBytes(32);

  before(async () => {
    database = await createTestDatabase();
    db = await createDb(database.url, quietLogger(), { maxPoolSize: 1 });
    const { rows } = await adminQuery("insert into principal (login_id) values ('reader') returning id", database.url);
    await adminQuery("insert into user_group (id) values ('g-b'), ('g-a'); insert into group_member (group_id, login_id) values ('g-b', 'reader'), ('g-a', 'reader')", database.url);
    await adminQuery(`insert into iam_policy (scope, bindings) values ('projects/named', '[{"role": "roles/projectOwner", "members": ["user:login_id=reader"]}]')`, database.url);
    await insertProject(db, "named", PROJECT, "reader");
    const token = (tokenHash: Buffer) => ({ hash: tokenHash, lifetimeMs: 3_600_000 });
    await insertSessionTokens(db, {
      familyId: randomUUID(),
      principalId: Number(rows[0]!.id),
      pendingMfaEnrollment: false,
      recordsSignIn: false,
      clientIp: "127.0.0.1",
      userAgent: "test",
      access: token(hash),
      refresh: token(randomBytes(32)),
    });
  });
  after(async () => {
    await db.end();
    await database.drop();
  });

  /** Every read, checked; `tx` is the pool or a transaction of it. */
  const readAll = async (tx: Parameters<typeof findProject>[0], forUpdate: boolean) => {
    assert.equal((await findSessionToken(tx, hash, forUpdate))?.principal.loginId, "reader");
    assert.equal(await findSessionToken(tx, randomBytes(32), forUpdate), undefined);
    await touchSessionToken(tx, hash);
    assert.deepEqual((await findPolicies(tx, ["projects/named"])).map((p) => p.bindings[0]?.role), ["roles/projectOwner"]);
    assert.deepEqual((await findPolicies(tx, ["workspaces/-", "projects/named", "projects/none"])).map((p) => p.scope).sort(), ["projects/named", "workspaces/-"]);
    assert.deepEqual(await groupIdsOfUser(tx, "reader"), ["g-a", "g-b"]);
    assert.deepEqual(await groupIdsOfUser(tx, "nobody"), []);
    assert.equal((await findProject(tx, "named", forUpdate))?.key, "NAMED");
    assert.equal(await findProject(tx, "none", forUpdate), undefined);
  };

  it("answers on the pool, then again from the prepared statements, and in transactions", async () => {
    for (let round = 0; round < 3; round++) {
      await readAll(db, false);
      await db.transaction((tx) => readAll(tx, true));
      await db.transaction((tx) => readAll(tx, false));
    }
    const prepared = await db.anyFirst(sql.type(preparedNameRow)`select name from pg_prepared_statements order by name`);
    for (const name of NAMES) assert.ok(prepared.includes(name), `${name} prepared, among ${prepared.join(", ")}`);
  });

  it("touches the token's last use", async () => {
    await adminQuery("update session_token set last_used_time = now() - interval '1 hour'", database.url);
    await touchSessionToken(db, hash);
    const row = await findSessionToken(db, hash);
    assert.ok(Date.now() - row!.familyLastUsedTime.getTime() < 60_000, `last use ${row!.familyLastUsedTime.toISOString()}`);
  });

  it("answers after a transaction that prepared them rolled back, or failed before preparing them", async () => {
    const fresh = await createDb(database.url, quietLogger(), { maxPoolSize: 1 });
    try {
      await assert.rejects(
        fresh.transaction(async (tx) => {
          await readAll(tx, true);
          throw new Error("roll back");
        }),
        /roll back/,
      );
      await readAll(fresh, false);
      const failed = await createDb(database.url, quietLogger(), { maxPoolSize: 1 });
      try {
        await assert.rejects(
          failed.transaction(async (tx) => {
            await tx.query(sql.unsafe`select 1 / 0`).catch(() => undefined);
            await findProject(tx, "named");
          }),
          /current transaction is aborted/,
        );
        await readAll(failed, false);
      } finally {
        await failed.end();
      }
    } finally {
      await fresh.end();
    }
  });
});
