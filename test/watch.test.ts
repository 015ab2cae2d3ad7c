// WatchRollout and WatchIssue (contract §12.3, §18.11): the resource at
// once, then each change within a second, over REST (newline-delimited JSON),
// Connect, gRPC and gRPC-Web; not_found and permission_denied before the
// first message; a client that leaves frees its change-feed subscription,
// and shutting the server down ends open watches. Then the change feed and
// the watch loop on their own: bursts of notices read once, states that read
// the same not sent again, heartbeats after a quiet interval, and a lost
// LISTEN connection followed by a re-read. No worker runs: tasks stay where
// the actions put them.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import pg from "pg";
import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import { Issue_Status } from "../shared/gen/svc/v1/issue_service_pb.js";
import { Rollout_State, RolloutService, type Rollout, type WatchRolloutResponse } from "../shared/gen/svc/v1/rollout_service_pb.js";
import { createRollout } from "../shared/change/pipeline/rollout-creation.ts";
import { rolloutName } from "../shared/change/rollout/rollout-names.ts";
import { createChangeFeed, type ChangeFeed } from "../shared/platform/watch/change-feed.ts";
import { CHANGE_CHANNEL } from "../shared/platform/watch/change-notice.store.ts";
import { watchResource } from "../shared/platform/watch/watch-resource.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { eventually } from "./helpers/instances.ts";
import { quietLogger } from "./helpers/logger.ts";
import { restClient } from "./helpers/rest.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser } from "./helpers/users.ts";

type Json = Record<string, any>;

const TARGET = "instances/pg-watch/databases/app";
/** The contract's bound for a change to reach a watcher in these tests. */
const WITHIN_MS = 1_000;

/** Settles with `promise`, or fails after `ms`. */
function within<T>(promise: Promise<T>, ms = WITHIN_MS, what = "the next message"): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not arrive within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The lines of an NDJSON body, as they arrive. */
async function* ndjsonLines(body: ReadableStream<Uint8Array>): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  let pending = "";
  for await (const bytes of body) {
    pending += decoder.decode(bytes, { stream: true });
    for (let end = pending.indexOf("\n"); end >= 0; end = pending.indexOf("\n")) {
      yield pending.slice(0, end);
      pending = pending.slice(end + 1);
    }
  }
  if (pending) yield pending;
}

describe("watch streams", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  const token = { admin: "", querier: "" };
  const ok = async (method: string, path: string, body?: unknown) => {
    const reply = await rest<Json>(method, path, { token: token.admin, body });
    assert.equal(reply.status, 200, `${method} ${path}: ${JSON.stringify(reply.body)}`);
    return reply.body;
  };
  const newPlan = async () => {
    const plan = await ok("POST", "/v1/projects/watch/plans", { title: "watched", specs: [{ changeDatabaseConfig: { targets: [TARGET], statement: "select 1" } }] });
    return String(plan.name);
  };
  /** A RUNNING rollout (its one stage is AUTOMATIC), made as an approval would make it. */
  const newRollout = async () => {
    const planId = (await newPlan()).split("/").at(-1)!;
    const rollout = await app.db.transaction((tx) => createRollout(tx, { projectId: "watch", planId, issueId: undefined, creator: "users/admin" }));
    return rolloutName(rollout);
  };
  const watchOverRest = async (name: string, as = token.admin, signal?: AbortSignal) =>
    fetch(`${app.baseUrl}/v1/${name}:watch`, { headers: { authorization: `Bearer ${as}` }, signal });
  const connectClient = (transport: Transport) => createClient(RolloutService, transport);
  const auth = (as: string) => ({ authorization: `Bearer ${as}` });

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    token.admin = await signInFirstAdmin(rest);
    await ok("POST", "/v1/projects?projectId=watch", {});
    await makeUser(app.db, "querier");
    const bind = (role: string, loginId: string) => ({ role: `roles/${role}`, members: [`user:login_id=${loginId}`] });
    await ok("POST", "/v1/projects/watch:setIamPolicy", { policy: { bindings: [bind("projectOwner", "admin"), bind("projectQuerier", "querier")] } });
    await adminQuery(
      `insert into instance (id, engine, environment) values ('pg-watch', 'POSTGRES', 'test');
       insert into instance_database (instance_id, name, project_id) values ('pg-watch', 'app', 'watch')`,
      app.database.url,
    );
    token.querier = await signIn(rest, "querier");
  });
  after(() => app.close());

  it("REST streams the rollout at once, then each change as an NDJSON line; a client that leaves frees its subscription", async () => {
    const name = await newRollout();
    const leave = new AbortController();
    const res = await watchOverRest(name, token.admin, leave.signal);
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/x-ndjson");
    const lines = ndjsonLines(res.body!);
    const next = async () => JSON.parse((await within(lines.next())).value!) as { result: Json };
    const first = await next();
    assert.deepEqual([first.result.name, first.result.state], [name, "RUNNING"]);
    assert.equal(app.changes.subscriberCount(), 1);

    // A notice that changes nothing sends nothing: the next line is the pause.
    await adminQuery(`select pg_notify('${CHANGE_CHANNEL}', '${name}')`, app.database.url);
    await ok("POST", `/v1/${name}:pause`, {});
    const paused = await next();
    assert.equal(paused.result.state, "PAUSED");
    assert.equal(paused.result.tasks[0].waitingReason, "rollout paused");
    await ok("POST", `/v1/${name}:resume`, {});
    assert.equal((await next()).result.state, "RUNNING");

    leave.abort();
    await eventually(async () => app.changes.subscriberCount() === 0, 2_000);
  });

  it("REST answers not_found and permission_denied as JSON errors before any line", async () => {
    const missing = await watchOverRest("projects/watch/rollouts/999999");
    assert.equal(missing.status, 404);
    assert.match(missing.headers.get("content-type") ?? "", /^application\/json/);
    const body = (await missing.json()) as Json;
    assert.deepEqual([body.code, body.message], ["not_found", 'rollout "projects/watch/rollouts/999999" does not exist']);

    const name = await newRollout();
    const refused = await watchOverRest(name, token.querier);
    assert.equal(refused.status, 403);
    assert.deepEqual(((await refused.json()) as Json).message, "permission bb.rollouts.get required on projects/watch");
    assert.equal(app.changes.subscriberCount(), 0);
  });

  const transports: [string, () => Transport][] = [
    ["Connect JSON over HTTP/1.1", () => createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" })],
    ["Connect binary over h2c", () => createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "2", useBinaryFormat: true })],
    ["gRPC over h2c", () => createGrpcTransport({ baseUrl: app.baseUrl })],
    ["gRPC-Web over HTTP/1.1", () => createGrpcWebTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" })],
  ];
  for (const [form, transport] of transports) {
    it(`${form} streams the rollout at once, then each change; aborting frees the subscription`, async () => {
      const name = await newRollout();
      const leave = new AbortController();
      const messages = connectClient(transport()).watchRollout({ name }, { headers: auth(token.admin), signal: leave.signal })[Symbol.asyncIterator]();
      const next = async (): Promise<Rollout> => {
        const { value } = await within(messages.next());
        const message = value as WatchRolloutResponse;
        return message.rollout ?? next(); // a message without rollout is a heartbeat
      };
      const first = await next();
      assert.deepEqual([first.name, first.tasks.length], [name, 1]);
      assert.equal(first.state, Rollout_State.RUNNING);
      await ok("POST", `/v1/${name}:pause`, {});
      assert.equal((await next()).state, Rollout_State.PAUSED);
      await ok("POST", `/v1/${name}:cancel`, { reason: "watched enough" });
      assert.equal((await next()).state, Rollout_State.CANCELED);

      leave.abort();
      await messages.next().catch(() => undefined);
      await eventually(async () => app.changes.subscriberCount() === 0, 2_000);
    });

    it(`${form} answers not_found and permission_denied before the first message`, async () => {
      const client = connectClient(transport());
      const firstOf = async (name: string, as: string) => {
        for await (const _ of client.watchRollout({ name }, { headers: auth(as) })) return undefined;
        return undefined;
      };
      const missing = await firstOf("projects/watch/rollouts/999999", token.admin).catch((e: unknown) => ConnectError.from(e));
      assert.equal((missing as ConnectError).code, Code.NotFound);
      const refused = await firstOf(await newRollout(), token.querier).catch((e: unknown) => ConnectError.from(e));
      assert.equal((refused as ConnectError).code, Code.PermissionDenied);
      assert.equal((refused as ConnectError).rawMessage, "permission bb.rollouts.get required on projects/watch");
    });
  }

  it("WatchIssue streams the issue at once, then its edits and status changes", async () => {
    const issue = await ok("POST", "/v1/projects/watch/issues", { plan: await newPlan(), title: "before" });
    const leave = new AbortController();
    const messages = connectClient(createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "2" }))
      .watchIssue({ name: issue.name }, { headers: auth(token.admin), signal: leave.signal })
      [Symbol.asyncIterator]();
    const next = async () => (await within(messages.next())).value!.issue!;
    assert.deepEqual([(await next()).title], ["before"]);
    await ok("PATCH", `/v1/${issue.name}?updateMask=title`, { title: "after" });
    assert.equal((await next()).title, "after");

    const res = await watchOverRest(issue.name);
    const lines = ndjsonLines(res.body!);
    assert.equal(JSON.parse((await within(lines.next())).value!).result.title, "after");
    await ok("POST", "/v1/projects/watch/issues:batchUpdateStatus", { issues: [issue.name], status: "CANCELED" });
    assert.equal((await next()).status, Issue_Status.CANCELED);
    assert.equal(JSON.parse((await within(lines.next())).value!).result.status, "CANCELED");
    leave.abort();
    await lines.return(undefined);
    await eventually(async () => app.changes.subscriberCount() === 0, 2_000);

    assert.equal((await watchOverRest("projects/watch/issues/999999")).status, 404);
  });

  it("ends open watches when the server shuts down", async () => {
    const name = await newRollout();
    const other = await startTestApp({ database: app.database });
    const lines = ndjsonLines((await fetch(`${other.baseUrl}/v1/${name}:watch`, { headers: auth(token.admin) })).body!);
    await within(lines.next());
    const messages = connectClient(createGrpcTransport({ baseUrl: other.baseUrl })).watchRollout({ name }, { headers: auth(token.admin) })[Symbol.asyncIterator]();
    await within(messages.next());
    await within(other.close(), 5_000, "the server's close");
    assert.equal((await within(lines.next())).done, true);
    const end = await within(messages.next().catch((e: unknown) => ConnectError.from(e)));
    assert.ok(end instanceof ConnectError || end.done, "the gRPC stream ended");
  });
});

describe("change feed and watch loop", () => {
  let app: TestApp;
  let feed: ChangeFeed;
  const notify = (name: string) => adminQuery(`select pg_notify('${CHANGE_CHANNEL}', '${name}')`, app.database.url);
  /** A watch of a counter that changes only when the test says so, counting its reads. */
  const counterWatch = (name: string, options: { heartbeatMs?: number } = {}) => {
    const state = { value: 0, reads: 0 };
    const leave = new AbortController();
    const read = async () => {
      state.reads++;
      return state.value;
    };
    const watch = watchResource(feed, name, read, { signal: leave.signal, same: (a, b) => a === b, ...options });
    return { state, watch, leave };
  };

  before(async () => {
    app = await startTestApp();
    feed = createChangeFeed(app.database.url, quietLogger());
    // The feed listens once its connection is up: a notice reaches a subscriber.
    let heard = false;
    const stop = feed.subscribe("ready", () => (heard = true));
    await eventually(async () => {
      await notify("ready");
      return heard;
    }, 5_000);
    stop();
  });
  after(async () => {
    await feed.close();
    await app.close();
  });

  it("reads once for a burst of notices, and sends the state read last", async () => {
    const { state, watch, leave } = counterWatch("burst");
    assert.equal((await watch.next()).value, 0);
    const seen: unknown[] = [];
    const watcher = (async () => {
      while (seen.at(-1) !== 50) seen.push((await watch.next()).value);
    })();
    const client = new pg.Client({ connectionString: app.database.url });
    await client.connect();
    try {
      // 50 notices about a millisecond apart, one per transaction, while the watcher waits.
      for (let i = 1; i <= 50; i++) {
        state.value = i;
        await client.query(`select pg_notify('${CHANGE_CHANNEL}', 'burst')`);
        await new Promise((resolve) => setTimeout(resolve, 1));
      }
    } finally {
      await client.end();
    }
    await within(watcher, 2_000, "the last state");
    // The initial read and one or two coalesced ones, not 51.
    assert.ok(state.reads <= 3, `${state.reads} reads, sent ${JSON.stringify(seen)}`);
    leave.abort();
    assert.equal((await watch.next()).done, true);
    assert.equal(feed.subscriberCount(), 0);
  });

  it("does not send a state that reads the same, and sends a heartbeat after a quiet interval", async () => {
    const { state, watch, leave } = counterWatch("quiet", { heartbeatMs: 300 });
    assert.equal((await watch.next()).value, 0);
    await notify("quiet");
    const started = performance.now();
    const next = await within(watch.next());
    assert.deepEqual([next.done, next.value], [false, undefined], "a heartbeat, not the same state again");
    assert.ok(performance.now() - started > 150);
    assert.equal(state.reads, 2, "the notice was read");
    leave.abort();
    await watch.return(undefined);
  });

  it("reads again after the LISTEN connection comes back, since a notice may have been missed", async () => {
    const { state, watch, leave } = counterWatch("reconnect");
    assert.equal((await watch.next()).value, 0);
    state.value = 1; // changed with no notice, as if it had been lost with the connection
    await adminQuery(`select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'svc changes' and datname = current_database()`, app.database.url);
    assert.equal((await within(watch.next(), 5_000)).value, 1);
    leave.abort();
    await watch.return(undefined);
    assert.equal(feed.subscriberCount(), 0);
  });
});
