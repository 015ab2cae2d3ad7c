// Jobs are enqueued in the caller's transaction and run by the worker; the
// leader runners schedule the clean-ups: of the job queue, and of the sign-in
// state nothing reads any more.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sql } from "slonik";
import { z } from "zod";
import { addJob } from "../shared/platform/jobs/jobs.store.ts";
import { createDb, type Db } from "../shared/platform/db.ts";
import { withTransaction } from "../shared/platform/transaction.ts";
import { createSecretBox } from "../shared/platform/secrets/secret-box.ts";
import { parseSecretKey } from "../shared/platform/secrets/secret-key.ts";
import { startWorker, type Worker } from "../worker/worker.ts";
import { createTestDatabase, type TestDatabase } from "./helpers/db.ts";
import { createMetrics } from "../shared/platform/metrics.ts";
import { quietLogger } from "./helpers/logger.ts";

async function eventually(check: () => Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 50));
  }
}

describe("worker", () => {
  let database: TestDatabase;
  let db: Db;
  let worker: Worker;
  before(async () => {
    database = await createTestDatabase();
    db = await createDb(database.url, quietLogger());
    const secrets = createSecretBox(parseSecretKey(process.env.SVC_SECRET_KEY ?? "", "SVC_SECRET_KEY"));
    worker = await startWorker({ url: database.url, db, logger: quietLogger(), secrets, metrics: createMetrics({ threadPoolSize: 4 }), webhookAllowPrivate: false, externalUrl: undefined });
  });
  after(async () => {
    await worker.stop();
    await db.end();
    await database.drop();
  });

  const jobCount = (identifier: string) =>
    db.oneFirst(sql.type(z.object({ n: z.coerce.number() }))`
      select count(*) as n from graphile_worker.jobs where task_identifier = ${identifier}`);

  it("becomes the leader when it is alone", async () => {
    await eventually(async () => worker.leadership.isLeader());
  });

  it("runs the clean-up job: old permanently failed jobs go, recent ones stay", async () => {
    const failedJob = async (daysAgo: number) => {
      const id = await db.oneFirst(sql.type(z.object({ id: z.string() }))`
        select (graphile_worker.add_job('unknown.task', '{}'::json, max_attempts => 1)).id::text as id`);
      await db.query(sql.unsafe`update graphile_worker._private_jobs
        set attempts = 1, updated_at = now() - make_interval(days => ${daysAgo}) where id = ${id}::bigint`);
    };
    await failedJob(40);
    await failedJob(1);
    await withTransaction(db, (tx) => addJob(tx, "maintenance.cleanupJobs", { permafailedOlderThanDays: 30 }));
    await eventually(async () => (await jobCount("unknown.task")) === 1);
    await eventually(async () => (await jobCount("maintenance.cleanupJobs")) === 0);
  });

  it("runs the sign-in state clean-up: expired and spent rows go, live ones stay", async () => {
    const ids = await db.anyFirst(sql.type(z.object({ id: z.coerce.number() }))`
      insert into principal (login_id) values ('sweep-a'), ('sweep-b') returning id`);
    const [a, b] = ids as [number, number];
    const ago = (interval: string) => sql.fragment`now() - ${interval}::interval`;
    const ahead = (interval: string) => sql.fragment`now() + ${interval}::interval`;
    const token = (name: string) => sql.binary(Buffer.from(name));
    const session = (name: string, family: string, kind: string, expire: ReturnType<typeof ago>) =>
      db.query(sql.unsafe`insert into session_token (token_hash, family_id, principal_id, kind, expire_time)
        values (${token(name)}, ${family}, ${a}, ${kind}, ${expire})`);
    // Family 1 ended two days ago; family 2 has an old access token but a live refresh token; family 3 is live.
    await session("s1-access", "00000000-0000-0000-0000-000000000001", "ACCESS", ago("3 days"));
    await session("s1-refresh", "00000000-0000-0000-0000-000000000001", "REFRESH", ago("2 days"));
    await session("s2-access", "00000000-0000-0000-0000-000000000002", "ACCESS", ago("2 days"));
    await session("s2-refresh", "00000000-0000-0000-0000-000000000002", "REFRESH", ahead("1 day"));
    await session("s3-access", "00000000-0000-0000-0000-000000000003", "ACCESS", ahead("1 hour"));
    await db.query(sql.unsafe`insert into password_reset_token (token_hash, principal_id, expire_time, used_time) values
      (${token("link-used")}, ${a}, ${ahead("10 minutes")}, now()),
      (${token("link-expired")}, ${a}, ${ago("1 minute")}, null),
      (${token("link-live")}, ${b}, ${ahead("10 minutes")}, null)`);
    await db.query(sql.unsafe`insert into email_signin_code (principal_id, code_hash, expire_time) values
      (${a}, ${token("code-a")}, ${ago("1 minute")}), (${b}, ${token("code-b")}, ${ahead("5 minutes")})`);
    await db.query(sql.unsafe`insert into mfa_temp_token (token_hash, principal_id, expire_time) values
      (${token("temp-expired")}, ${a}, ${ago("1 minute")}), (${token("temp-live")}, ${b}, ${ahead("4 minutes")})`);
    await db.query(sql.unsafe`insert into identity_provider (id, title, type, config) values ('sweep', 'Sweep', 'OIDC', '{}'::jsonb)`);
    await db.query(sql.unsafe`insert into sso_login_state (state, idp_id, redirect, expire_time) values
      ('state-expired', 'sweep', '/', ${ago("1 minute")}), ('state-live', 'sweep', '/', ${ahead("9 minutes")})`);
    await db.query(sql.unsafe`insert into saml_assertion_seen (idp_id, assertion_id, expire_time) values
      ('sweep', 'assertion-expired', ${ago("1 minute")}), ('sweep', 'assertion-live', ${ahead("5 minutes")})`);
    await db.query(sql.unsafe`insert into rate_limit_hit (bucket, key, hit_time) values
      ('login', '192.0.2.1', ${ago("2 minutes")}), ('login', '192.0.2.2', ${ago("10 seconds")})`);
    await db.query(sql.unsafe`insert into login_failure (login_id, failure_count, locked_until, update_time) values
      ('quiet', 4, null, ${ago("1 hour")}), ('lock-ended', 11, ${ago("5 minutes")}, ${ago("20 minutes")}),
      ('locked', 11, ${ahead("5 minutes")}, ${ago("10 minutes")}), ('recent', 3, null, ${ago("1 minute")})`);

    const left = () =>
      db.one(sql.type(z.object({ sessions: z.string(), links: z.string(), codes: z.string(), temps: z.string(), states: z.string(),
                                 assertions: z.string(), hits: z.string(), failures: z.string() }))`
        select (select string_agg(convert_from(token_hash, 'utf8'), ',' order by 1) from session_token) as sessions,
               (select string_agg(convert_from(token_hash, 'utf8'), ',' order by 1) from password_reset_token) as links,
               (select string_agg(convert_from(code_hash, 'utf8'), ',' order by 1) from email_signin_code) as codes,
               (select string_agg(convert_from(token_hash, 'utf8'), ',' order by 1) from mfa_temp_token) as temps,
               (select string_agg(state, ',' order by 1) from sso_login_state) as states,
               (select string_agg(assertion_id, ',' order by 1) from saml_assertion_seen) as assertions,
               (select string_agg(key, ',' order by 1) from rate_limit_hit) as hits,
               (select string_agg(login_id, ',' order by 1) from login_failure) as failures`);
    await withTransaction(db, (tx) => addJob(tx, "maintenance.cleanupSignInState", {}));
    await eventually(async () => (await jobCount("maintenance.cleanupSignInState")) === 0);
    assert.deepEqual(await left(), {
      sessions: "s2-access,s2-refresh,s3-access",
      links: "link-live",
      codes: "code-b",
      temps: "temp-live",
      states: "state-live",
      assertions: "assertion-live",
      hits: "192.0.2.2",
      failures: "locked,recent",
    });
  });

  it("never runs a job whose transaction rolled back", async () => {
    await assert.rejects(
      withTransaction(db, async (tx) => {
        await addJob(tx, "maintenance.cleanupJobs", { permafailedOlderThanDays: 1 }, { jobKey: "rolled-back" });
        throw new Error("the change failed");
      }),
      /the change failed/,
    );
    const keyed = await db.oneFirst(sql.type(z.object({ n: z.coerce.number() }))`
      select count(*) as n from graphile_worker.jobs where key = 'rolled-back'`);
    assert.equal(keyed, 0);
  });

  it("refuses a payload that does not match the catalogue", async () => {
    await db.query(sql.unsafe`select graphile_worker.add_job('maintenance.cleanupJobs', '{"permafailedOlderThanDays": "soon"}'::json, max_attempts => 1)`);
    await eventually(async () => {
      const failed = await db.maybeOne(sql.type(z.object({ last_error: z.string().nullable() }))`
        select last_error from graphile_worker.jobs
        where task_identifier = 'maintenance.cleanupJobs' and attempts >= max_attempts`);
      return Boolean(failed?.last_error?.includes("permafailedOlderThanDays"));
    });
  });
});
