// The notify figure's third row, notify.approve_to_running: approve →
// RUNNING (harness/approvals.ts) with notifications configured against the
// same without, on the same API server and worker. Configured means
// MONITORING and a GENERIC and a SLACK webhook of the approvals' project,
// all taking every event and pointing at the figure's receiver: each
// approval's events then go to three channels, and so do the comments that
// another client posts on an issue of the project throughout (COMMENTS_PER_S,
// in both states, so that the API does the same work). After an unrecorded
// warm-up in each state, rounds alternate the two states (ROUNDS × SAMPLES
// each), each going first in every other round, so that drift on a busy
// machine and what follows a change of the settings fall on both (with the
// state without always first, its first round ran cold and its p99 came out
// higher than the other's). The target: the p99 with notifications within
// 10 % of the p99 without (ratio = p99 without / p99 with ≥ 1/1.1).
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { startEmbeddedServer } from "../../test/helpers/postgres-server.ts";
import { adminQuery, adopt, type Api, jobsEnded } from "../harness/api-client.ts";
import { approveToRunning, prepareApprovals } from "../harness/approvals.ts";
import { stderrLogger } from "../harness/database.ts";
import { Latencies, percentile } from "../harness/load-result.ts";
import { note, ratioOf, type Row, type Target } from "../harness/types.ts";

const WHERE = { project: "approve", instance: "approve" };
const DATABASE = "svc_bench_notify_approve";
const ROUNDS = 6;
const SAMPLES = 40;
const WARMUP_SAMPLES = 20;
/** BENCH_NOTIFY_COMMENTS_PER_S overrides it (0: none). */
const COMMENTS_PER_S = Number(process.env.BENCH_NOTIFY_COMMENTS_PER_S ?? 25);
const TARGET: Target = { on: "ratio", min: 1 / 1.1 };

interface Latency {
  without: Latencies;
  with: Latencies;
  comments: number;
  deliveries: number;
}

/** The row; `origin` is the receiver's, which answers 200 to any path. */
export async function approvalRow(api: Api, loginId: string, databaseUrl: string, origin: string): Promise<Row> {
  const targetServer = await startEmbeddedServer(stderrLogger());
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await prepareApprovals(api, loginId, WHERE, targetServer.adminUrl);
    await adminQuery(targetServer.adminUrl, `create database ${DATABASE}`);
    await adopt(api, databaseUrl, WHERE, [DATABASE]);
    const latency = await alternate(api, client, databaseUrl, origin);
    note(`approve → RUNNING, p99 without notifications ${p99(latency.without).toFixed(1)} ms, with ${p99(latency.with).toFixed(1)} ms`);
    return row(latency);
  } finally {
    await client.end();
    await targetServer.stop();
  }
}

async function alternate(api: Api, client: pg.Client, databaseUrl: string, origin: string): Promise<Latency> {
  const target = `instances/${WHERE.instance}/databases/${DATABASE}`;
  const commented = await pendingIssue(api, target);
  const latency: Latency = { without: new Latencies(), with: new Latencies(), comments: 0, deliveries: 0 };
  const sample = async (count: number, label: string, into?: Latencies) => {
    const round = new Latencies();
    const comments = commentWhile(api, commented);
    try {
      for (let i = 0; i < count; i++) round.add(await approveToRunning(api, client, WHERE.project, target, `${label} ${i}`));
    } finally {
      const posted = await comments.stop();
      if (into) latency.comments += posted;
    }
    const sorted = round.sorted();
    if (into) for (const ms of sorted) into.add(ms);
    note(`${label}: p50 ${percentile(sorted, 50).toFixed(1)} ms, p99 ${percentile(sorted, 99).toFixed(1)} ms, max ${sorted.at(-1)!.toFixed(1)} ms`);
  };
  const sampleWith = async (count: number, label: string, into?: Latencies) => {
    const webhooks = await notificationsOn(api, origin);
    await sample(count, label, into);
    await notificationsOff(api, webhooks);
  };
  // Unrecorded first: the server's and the worker's first approvals in each state compile and fill caches.
  await sample(WARMUP_SAMPLES, "warm-up without");
  await sampleWith(WARMUP_SAMPLES, "warm-up with");
  for (let round = 0; round < ROUNDS; round++) {
    // Each state goes first in every other round, so that neither always follows the settings' change.
    const without = () => sample(SAMPLES, `round ${round + 1} without`, latency.without);
    const withNotifications = () => sampleWith(SAMPLES, `round ${round + 1} with`, latency.with);
    for (const state of round % 2 === 0 ? [without, withNotifications] : [withNotifications, without]) await state();
  }
  await jobsEnded(databaseUrl, "notify.deliver");
  latency.deliveries = Number((await client.query("select count(*) as n from notification_delivery where status = 'SENT'")).rows[0].n);
  return latency;
}

/** An issue of the project, left waiting for its approval, to comment on. */
async function pendingIssue(api: Api, target: string): Promise<string> {
  const plan = await api.call("POST", `/v1/projects/${WHERE.project}/plans`, { title: "commented", specs: [{ changeDatabaseConfig: { targets: [target], statement: "select 1", type: "DATA" } }] });
  return String((await api.call("POST", `/v1/projects/${WHERE.project}/issues`, { plan: plan.name })).name);
}

/** Comments on the issue at COMMENTS_PER_S until stopped; stop() answers how many were posted. */
function commentWhile(api: Api, issue: string): { stop(): Promise<number> } {
  let stopped = false;
  let posted = 0;
  const started = performance.now();
  const loop = (async () => {
    while (!stopped && COMMENTS_PER_S > 0) {
      await api.call("POST", `/v1/${issue}/comments`, { comment: `bench ${posted}` });
      posted++;
      await sleep(Math.max(0, started + (posted * 1000) / COMMENTS_PER_S - performance.now()));
    }
  })();
  return {
    async stop() {
      stopped = true;
      await loop;
      return posted;
    },
  };
}

/** MONITORING and the project's GENERIC and SLACK webhooks, every event to the receiver; answers the webhooks' names. */
async function notificationsOn(api: Api, origin: string): Promise<string[]> {
  await api.call("PATCH", "/v1/settings/MONITORING?updateMask=*", { value: { monitoring: { webhooks: [{ url: `${origin}/approve/monitoring`, secret: "bench-secret" }] } } });
  const names: string[] = [];
  for (const type of ["GENERIC", "SLACK"]) {
    const hook = await api.call("POST", `/v1/projects/${WHERE.project}/webhooks`, { title: type, type, url: `${origin}/approve/${type.toLowerCase()}`, secret: type === "GENERIC" ? "bench-secret" : undefined });
    names.push(String(hook.name));
  }
  return names;
}

async function notificationsOff(api: Api, webhooks: readonly string[]): Promise<void> {
  await api.call("PATCH", "/v1/settings/MONITORING?updateMask=*", { value: { monitoring: { webhooks: [] } } });
  for (const name of webhooks) await api.call("DELETE", `/v1/${name}`, {});
}

function p99(latencies: Latencies): number {
  return percentile(latencies.sorted(), 99);
}

function row(latency: Latency): Row {
  const withP99 = p99(latency.with);
  const withoutP99 = p99(latency.without);
  return {
    name: "notify.approve_to_running",
    value: Math.round(withP99 * 10) / 10,
    unit: "ms",
    baseline: Math.round(withoutP99 * 10) / 10,
    ratio: ratioOf(withoutP99, withP99),
    targets: [TARGET],
    detail: {
      p50Ms: percentile(latency.with.sorted(), 50),
      p99Ms: withP99,
      baselineP50Ms: percentile(latency.without.sorted(), 50),
      baselineP99Ms: withoutP99,
      note: `value and baseline are p99s: with MONITORING + GENERIC + SLACK webhooks vs none, ${ROUNDS} alternating rounds of ${SAMPLES} approvals each, ${latency.comments} comments at ${COMMENTS_PER_S}/s meanwhile; ${latency.deliveries} deliveries sent`,
    },
  };
}
