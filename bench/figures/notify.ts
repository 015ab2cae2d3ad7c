// Notifications (issue 27), with the real API server and the real worker in
// child processes and a webhook receiver on loopback in this process:
//   - notify.event_to_delivered: from an event (its payload's time, taken in
//     the change's transaction before the commit) to the MONITORING
//     receiver holding the request, one emergency-pause switch at a time
//     (targets: p50 ≤ 100 ms, p99 ≤ 500 ms). Baseline: a bare
//     graphile-worker job whose handler POSTs to the same receiver, from
//     its add_job to the receipt.
//   - notify.deliveries_per_s: 1,000 issue comments, each fanned out to
//     three channels (MONITORING, a GENERIC and a SLACK project webhook),
//     queued while no worker runs; then a worker starts, and the figure is
//     the 3,000 deliveries over the time from its being ready to the last receipt
//     (target: all within 10 s, ≥ 300/s). Baseline: 3,000 bare POSTs to the
//     receiver from this process, as many at once as the worker runs
//     deliveries.
//   - notify.approve_to_running: approve → RUNNING with notifications
//     configured against none (notify-approvals.ts; target: p99 within 10 %).
// The server runs with --rate-limit-per-user 0: one user makes every call.
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { Logger, run } from "graphile-worker";
import pg from "pg";
import { adminQuery, apiClient, type Api, createWorkspaceAdmin } from "../harness/api-client.ts";
import { startChildProcess, startChildServer, type ChildServer } from "../harness/child-server.ts";
import { Latencies, percentile } from "../harness/load-result.ts";
import { approvalRow } from "./notify-approvals.ts";
import { note, ratioOf, type BenchContext, type Figure, type Row, type Target } from "../harness/types.ts";

const LOGIN = { loginId: "bench-notify", password: "Bench-Notify-Pass-9" };
const EVENTS_TIMED = 200;
const COMMENTS = 1000;
const CHANNELS = 3;
/** The deliveries the worker runs at once (worker/worker.ts DEFAULT_NOTIFY_CONCURRENCY): the bare POSTs use as many at once. */
const WORKER_CONCURRENCY = 10;
const LATENCY_TARGETS: Target[] = [{ on: "value", max: 100 }, { on: "p99", max: 500 }];
const THROUGHPUT_TARGET: Target = { on: "value", min: (COMMENTS * CHANNELS) / 10 };

export const notifyFigure: Figure = {
  name: "notify",
  description: "event → webhook received latency, 1,000 events × 3 channels delivered from a queue, approve → RUNNING with notifications vs without",
  async run(context: BenchContext): Promise<Row[]> {
    const env = { BENCH_PG_URL: context.databaseUrl, BENCH_SERVER_FLAGS: "--webhook-allow-private --rate-limit-per-user 0", SVC_WEBHOOK_ALLOW_PRIVATE: "true" };
    await createWorkspaceAdmin(context.databaseUrl, LOGIN);
    const receiver = await startReceiver();
    let server: ChildServer | undefined;
    let worker: Omit<ChildServer, "port"> | undefined;
    try {
      server = await startChildServer("server-process.ts", env, context.cpuProfDir);
      worker = await startChildProcess("worker-process.ts", env, context.cpuProfDir);
      const api = await apiClient(server.port, LOGIN);
      const approvals = await approvalRow(api, LOGIN.loginId, context.databaseUrl, receiver.origin);
      const issue = await prepare(api, context.databaseUrl, receiver.origin);
      const latency = await eventToDelivered(api, receiver);
      const bareLatency = await bareJobPost(context.databaseUrl, receiver);
      await worker.stop();
      worker = undefined;
      await queueComments(api, issue, context.databaseUrl);
      receiver.reset();
      worker = await startChildProcess("worker-process.ts", env, context.cpuProfDir);
      const started = performance.now();
      await receiver.until((r) => r.commented >= COMMENTS * CHANNELS);
      const rate = (COMMENTS * CHANNELS) / ((performance.now() - started) / 1000);
      const bareRate = await barePosts(receiver);
      return [latencyRow(latency, bareLatency), rateRow(rate, bareRate), approvals];
    } finally {
      await worker?.stop();
      await server?.stop();
      await receiver.close();
    }
  },
};

/** Project `notify` with one issue, its GENERIC and SLACK webhooks, and MONITORING, all pointing at the receiver. */
async function prepare(api: Api, databaseUrl: string, origin: string): Promise<string> {
  await api.call("POST", "/v1/projects?projectId=notify", { title: "Notify" });
  await adminQuery(databaseUrl, `insert into instance (id, engine, environment) values ('notify-pg', 'POSTGRES', 'prod');
                                 insert into instance_database (instance_id, name, project_id) values ('notify-pg', 'app', 'notify')`);
  await api.call("PATCH", "/v1/settings/MONITORING?updateMask=*", { value: { monitoring: { webhooks: [{ url: `${origin}/monitoring`, secret: "bench-secret" }] } } });
  for (const type of ["GENERIC", "SLACK"]) {
    await api.call("POST", "/v1/projects/notify/webhooks", { title: type, type, url: `${origin}/${type.toLowerCase()}`, secret: type === "GENERIC" ? "bench-secret" : undefined, events: ["issue.commented"] });
  }
  const plan = await api.call("POST", "/v1/projects/notify/plans", { title: "bench", specs: [{ changeDatabaseConfig: { targets: ["instances/notify-pg/databases/app"], statement: "select 1" } }] });
  return String((await api.call("POST", "/v1/projects/notify/issues", { plan: plan.name })).name);
}

/** One emergency-pause switch at a time, each waited for at the receiver. */
async function eventToDelivered(api: Api, receiver: Receiver): Promise<Latencies> {
  const latencies = new Latencies();
  for (let i = 0; i < EVENTS_TIMED; i++) {
    const before = receiver.paused;
    await api.call("PATCH", "/v1/settings/EMERGENCY_PAUSE?updateMask=*", { value: { emergencyPause: { enabled: i % 2 === 0, reason: i % 2 === 0 ? "bench" : "" } } });
    await receiver.until((r) => r.paused > before);
    latencies.add(receiver.lastPauseDelayMs);
  }
  // Leave the pause off for what follows.
  if (EVENTS_TIMED % 2 === 1) await api.call("PATCH", "/v1/settings/EMERGENCY_PAUSE?updateMask=*", { value: { emergencyPause: { enabled: false } } });
  return latencies;
}

/** The comments, four calls at a time, with no worker running: 3,000 deliveries wait. */
async function queueComments(api: Api, issue: string, databaseUrl: string): Promise<void> {
  let next = 0;
  const post = async () => {
    while (next < COMMENTS) {
      next++;
      await api.call("POST", `/v1/${issue}/comments`, { comment: `bench ${next}` });
    }
  };
  await Promise.all(Array.from({ length: 4 }, post));
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const { rows } = await client.query("select count(*)::int as n from notification_delivery where status = 'PENDING' and event = 'issue.commented'");
  await client.end();
  note(`${rows[0].n} deliveries queued`);
}

/** A bare job whose handler POSTs to the receiver: add_job → receipt. */
async function bareJobPost(databaseUrl: string, receiver: Receiver): Promise<Latencies> {
  const latencies = new Latencies();
  const runner = await run({
    connectionString: databaseUrl,
    concurrency: 1,
    noHandleSignals: true,
    crontab: "",
    taskList: { "bench.post": () => post(`${receiver.origin}/bare`) },
    logger: new Logger(() => () => undefined),
  });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (let i = 0; i < EVENTS_TIMED; i++) {
      const before = receiver.bare;
      const sent = performance.now();
      await client.query("select graphile_worker.add_job('bench.post', '{}'::json)");
      await receiver.until((r) => r.bare > before);
      latencies.add(performance.now() - sent);
    }
  } finally {
    await client.end();
    await runner.stop();
  }
  return latencies;
}

/** 3,000 POSTs, WORKER_CONCURRENCY at a time, each on a connection of its own as the worker's are. */
async function barePosts(receiver: Receiver): Promise<number> {
  let left = COMMENTS * CHANNELS;
  const started = performance.now();
  const loop = async () => {
    while (left-- > 0) await post(`${receiver.origin}/bare`);
  };
  await Promise.all(Array.from({ length: WORKER_CONCURRENCY }, loop));
  return (COMMENTS * CHANNELS) / ((performance.now() - started) / 1000);
}

function post(url: string): Promise<void> {
  const body = JSON.stringify({ event: "bench", time: new Date().toISOString() });
  return new Promise((resolve, reject) => {
    const req = request(url, { method: "POST", agent: false, headers: { "content-type": "application/json", "content-length": Buffer.byteLength(body) } }, (res) => {
      res.resume();
      res.on("end", () => resolve());
    });
    req.on("error", reject);
    req.end(body);
  });
}

interface Counts {
  /** emergencyPause.changed requests received. */
  paused: number;
  /** issue.commented requests received, whichever channel. */
  commented: number;
  /** Bare baseline requests received. */
  bare: number;
}

interface Receiver extends Counts {
  origin: string;
  /** Receipt time minus the payload's time of the last emergencyPause.changed. */
  lastPauseDelayMs: number;
  reset(): void;
  until(done: (counts: Counts) => boolean): Promise<void>;
  close(): Promise<void>;
}

/** A loopback receiver answering 200 "ok" (what Slack answers) and counting by event. */
async function startReceiver(): Promise<Receiver> {
  const waiters = new Set<() => void>();
  const counts: Receiver = {
    origin: "",
    paused: 0,
    commented: 0,
    bare: 0,
    lastPauseDelayMs: 0,
    reset: () => Object.assign(counts, { paused: 0, commented: 0, bare: 0 }),
    until: (done) =>
      new Promise<void>((resolve, reject) => {
        if (done(counts)) return resolve();
        const timer = setTimeout(() => (waiters.delete(check), reject(new Error(`the receiver waited 120 s (${JSON.stringify({ ...counts })})`))), 120_000);
        const check = () => {
          if (!done(counts)) return;
          clearTimeout(timer);
          waiters.delete(check);
          resolve();
        };
        waiters.add(check);
      }),
    close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))),
  };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const received = Date.now();
      res.writeHead(200).end("ok");
      count(req.url ?? "", req.headers["x-svc-event"], Buffer.concat(chunks).toString("utf8"), received);
      for (const waiter of [...waiters]) waiter();
    });
  });
  const count = (path: string, event: string | string[] | undefined, body: string, received: number) => {
    if (path === "/bare") counts.bare++;
    else if (event === "emergencyPause.changed") {
      counts.paused++;
      counts.lastPauseDelayMs = received - Date.parse(JSON.parse(body).time);
    } else if (path === "/slack" || event === "issue.commented") counts.commented++;
  };
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  counts.origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return counts;
}

function latencyRow(latency: Latencies, bare: Latencies): Row {
  const p50 = percentile(latency.sorted(), 50);
  const bareP50 = percentile(bare.sorted(), 50);
  return {
    name: "notify.event_to_delivered",
    value: round1(p50),
    unit: "ms",
    baseline: round1(bareP50),
    ratio: ratioOf(bareP50, p50),
    targets: LATENCY_TARGETS,
    detail: {
      p50Ms: p50,
      p99Ms: percentile(latency.sorted(), 99),
      baselineP50Ms: bareP50,
      baselineP99Ms: percentile(bare.sorted(), 99),
      note: "MONITORING webhook; baseline: a bare graphile-worker job POSTing to the receiver",
    },
  };
}

function rateRow(rate: number, bareRate: number): Row {
  return {
    name: "notify.deliveries_per_s",
    value: Math.round(rate),
    unit: "deliveries/s",
    baseline: Math.round(bareRate),
    ratio: ratioOf(rate, bareRate),
    targets: [THROUGHPUT_TARGET],
    detail: { note: `${COMMENTS} comments × ${CHANNELS} channels queued, from the worker being ready; baseline: bare POSTs, ${WORKER_CONCURRENCY} at a time` },
  };
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}
