// The change pipeline's dispatch and throughput (issue 6), with the real API
// server and the real worker in child processes:
//   - rollout.approve_to_running: from sending ApproveIssue to the task run's
//     start_time (PENDING → RUNNING in the worker), for an issue whose only
//     target is in an AUTOMATIC environment (targets: p50 ≤ 25 ms, p99 ≤
//     100 ms). Baseline: a bare graphile-worker job, from the commit of its
//     add_job to its handler starting, in this process.
//   - rollout.ddl_500: a trivial DDL rolled out to 500 databases, from the
//     rollout's creation to the end of its last task run, against a bare
//     script running the same DDL on the same 500 databases with as many
//     connections as the worker runs jobs (target: ≤ 1.5× the bare time).
//     The 500 databases are on a server of their own, a second embedded
//     PostgreSQL on the cores other than the server core (placeServers): the
//     metadata store is never a target in a deployment, and there the
//     targets' servers do not share their CPUs with the platform. The
//     platform and the bare script, which stands in for it, run on the
//     server core.
//     Rollout and script alternate for ROUNDS rounds (a new table each), and
//     the round with the median ratio is reported, with every round's ratio:
//     one round moves ±10–15% on a busy machine, so five rounds are run.
// The ratios are baseline/value: the share of the bare speed.
import { setTimeout as sleep } from "node:timers/promises";
import { Logger, run } from "graphile-worker";
import pg from "pg";
import { startChildProcess, startChildServer, type ChildServer } from "../harness/child-server.ts";
import { childPids, place, processCpuSeconds } from "../harness/cpu.ts";
import { postgresCpuReader, postmasterPid, type CpuReader } from "../harness/postgres-cpu.ts";
import { Latencies, percentile } from "../harness/load-result.ts";
import { note, ratioOf, type BenchContext, type Figure, type Row, type Target } from "../harness/types.ts";
import { startEmbeddedServer } from "../../test/helpers/postgres-server.ts";
import { stderrLogger } from "../harness/database.ts";
import { adminQuery, adopt, apiClient, type Api, createWorkspaceAdmin } from "../harness/api-client.ts";
import { approveToRunning, prepareApprovals } from "../harness/approvals.ts";

const LOGIN = { loginId: "bench-rollout", password: "Bench-Rollout-Pass-9" };
/** The instance on the targets' server, and the project its databases move into. */
const BENCH_INSTANCE = { instance: "bench", project: "bench" };
const APPROVALS = 100;
/** The database on the targets' server that the approval latency's changes target. */
const LATENCY_DATABASE = "svc_bench_latency";
/** BENCH_ROLLOUT_DATABASES overrides it for a quicker look. */
const DATABASES = Number(process.env.BENCH_ROLLOUT_DATABASES ?? 500);
/** BENCH_ROLLOUT_ROUNDS overrides it. */
const ROUNDS = Number(process.env.BENCH_ROLLOUT_ROUNDS ?? 5);
/** The worker's job concurrency (worker/worker.ts DEFAULT_CONCURRENCY): the bare script uses as many connections. */
const WORKER_CONCURRENCY = 5;
/** approve → RUNNING: the row's value is the p50 (ms). */
const LATENCY_TARGETS: Target[] = [{ on: "value", max: 25 }, { on: "p99", max: 100 }];
/** The 500-database rollout: at most 1.5× the bare script's time. */
const THROUGHPUT_TARGET: Target = { on: "ratio", min: 1 / 1.5 };

export const rolloutFigure: Figure = {
  name: "rollout",
  description: "approve → first task run RUNNING latency, and a DDL rolled out to 500 databases vs a bare script",
  async run(context: BenchContext): Promise<Row[]> {
    // One user makes every call: 100 approvals with their plans, issues and polls pass the per-user limit in well under a minute.
    const env = { BENCH_PG_URL: context.databaseUrl, BENCH_SERVER_FLAGS: "--rate-limit-per-user 0" };
    await createWorkspaceAdmin(context.databaseUrl, LOGIN);
    const targetServer = await startEmbeddedServer(stderrLogger());
    let server: ChildServer | undefined;
    let worker: Omit<ChildServer, "port"> | undefined;
    let placement: Placement | undefined;
    try {
      const targetUrl = targetServer.adminUrl;
      server = await startChildServer("server-process.ts", env, context.cpuProfDir);
      worker = await startChildProcess("worker-process.ts", env, context.cpuProfDir);
      const api = await apiClient(server.port, LOGIN);
      await prepareApprovals(api, LOGIN.loginId, BENCH_INSTANCE, targetUrl);
      const latency = await approvalLatencies(api, context.databaseUrl, targetUrl);
      const bare = await bareDispatch(context.databaseUrl);
      const databases = await createTargets(targetUrl);
      await adopt(api, context.databaseUrl, BENCH_INSTANCE, databases);
      placement = await placeServers(context.databaseUrl, targetUrl);
      const readPostgresCpu = sumOf(await postgresCpuReader(context.databaseUrl), await postgresCpuReader(targetUrl));
      const rounds: Round[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const rolloutCpu = cpuOf([server.pid, worker.pid], readPostgresCpu);
        const rolloutMs = await rolloutTo(api, context.databaseUrl, databases, rolloutCpu, `bench_rollout_${round}`);
        const rolledCpu = rolloutCpu.spent();
        await checkpoint(context.databaseUrl, targetUrl);
        const scriptCpu = cpuOf([], readPostgresCpu);
        scriptCpu.start();
        const scriptMs = await bareScript(targetUrl, databases, `bench_bare_${round}`);
        rounds.push({ rolloutMs, scriptMs, rolloutCpu: rolledCpu, scriptCpu: scriptCpu.spent() });
        await checkpoint(context.databaseUrl, targetUrl);
      }
      return [latencyRow(latency, bare), throughputRow(rounds, placement !== undefined), cpuRow(rounds)];
    } finally {
      placement?.undo();
      await worker?.stop();
      await server?.stop();
      await targetServer.stop();
    }
  },
};

/** Undoes a placement of processes on cores. */
interface Placement {
  undo(): void;
}

/**
 * Gives the targets' server cores of its own, as a deployment's database
 * servers have: the cores other than the server core. The platform keeps
 * the server core (the API server and the worker start there; the metadata
 * store joins them), and so does this process, which runs the bare script:
 * in both phases one side orchestrates and the other executes. Without
 * pinning (fewer than two cores, no taskset, or a store this user may not
 * move) everything shares the CPUs.
 */
async function placeServers(storeUrl: string, targetUrl: string): Promise<Placement | undefined> {
  const store = await postmasterPid(storeUrl);
  const targets = await postmasterPid(targetUrl);
  const storeProcesses = store === undefined ? [] : [store, ...childPids(store)];
  const undo = () => {
    place([process.pid], "other-cores");
    if (store !== undefined) place([...storeProcesses, ...childPids(store)], "anywhere");
  };
  const placed = store !== undefined && targets !== undefined
    && place([process.pid], "server-core") && place(storeProcesses, "server-core") && place([targets, ...childPids(targets)], "other-cores");
  if (!placed) {
    undo();
    note("not pinning CPUs: the metadata store, the targets and the platform share them");
    return undefined;
  }
  note("the targets' server pinned to the cores other than the server core; the metadata store, the API server, the worker and the bare script on the server core");
  return { undo };
}

function sumOf(...readers: (CpuReader | undefined)[]): CpuReader | undefined {
  if (readers.some((reader) => reader === undefined)) return undefined;
  return () => readers.reduce((sum, reader) => sum + reader!(), 0);
}

async function checkpoint(...serverUrls: string[]): Promise<void> {
  for (const url of serverUrls) await adminQuery(url, "checkpoint");
}

/** ApproveIssue sent → the first task run's start_time, APPROVALS times in turn. */
async function approvalLatencies(api: Api, databaseUrl: string, targetUrl: string): Promise<Latencies> {
  await adminQuery(targetUrl, `create database ${LATENCY_DATABASE}`);
  await adopt(api, databaseUrl, BENCH_INSTANCE, [LATENCY_DATABASE]);
  const target = `instances/bench/databases/${LATENCY_DATABASE}`;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const latencies = new Latencies();
  try {
    for (let i = 0; i < APPROVALS; i++) latencies.add(await approveToRunning(api, client, BENCH_INSTANCE.project, target, `approval ${i}`));
  } finally {
    await client.end();
  }
  note(`approve → RUNNING over ${APPROVALS} issues: p50 ${percentile(latencies.sorted(), 50).toFixed(1)} ms, p99 ${percentile(latencies.sorted(), 99).toFixed(1)} ms`);
  return latencies;
}

/** A bare graphile-worker job: add_job committed → handler started, APPROVALS times. */
async function bareDispatch(databaseUrl: string): Promise<Latencies> {
  const latencies = new Latencies();
  let started: (() => void) | undefined;
  const runner = await run({
    connectionString: databaseUrl,
    concurrency: 1,
    noHandleSignals: true,
    crontab: "",
    taskList: { "bench.noop": async () => started?.() },
    logger: new Logger(() => () => undefined),
  });
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (let i = 0; i < APPROVALS; i++) {
      const handled = new Promise<void>((resolve) => (started = resolve));
      const sent = performance.now();
      await client.query("select graphile_worker.add_job('bench.noop', '{}'::json)");
      await handled;
      latencies.add(performance.now() - sent);
    }
  } finally {
    await client.end();
    await runner.stop();
  }
  return latencies;
}

async function createTargets(databaseUrl: string): Promise<string[]> {
  const names = Array.from({ length: DATABASES }, (_, i) => `svc_bench_rt_${process.pid}_${i}`);
  note(`creating ${DATABASES} target databases`);
  await inParallel(names, 4, (name) => adminQuery(databaseUrl, `create database ${name}`));
  // The first session of a new database costs the server about twice a later one's CPU
  // (it builds the database's catalog cache file and reads its catalog in): each database
  // is opened once here, so that neither the rollout (measured first) pays it nor the
  // bare script is spared it. Each database created also writes its template's files to
  // the WAL: the checkpoints that follow would otherwise run in the measured window.
  await inParallel(names, 4, (name) => adminQuery(withDatabase(databaseUrl, name), "select 1"));
  await adminQuery(databaseUrl, "checkpoint");
  return names;
}

/**
 * CPU seconds spent from start() to spent(): by the given processes, this
 * process, and the PostgreSQL server (when it can be read); what other work
 * on the machine takes does not count, unlike in the elapsed time.
 */
interface CpuMeter {
  start(): void;
  spent(): CpuSpent;
}

interface CpuSpent {
  seconds: number;
  /** undefined when the server's processes cannot be read. */
  postgres: number | undefined;
  processes: number;
}

function cpuOf(pids: readonly number[], readPostgres: CpuReader | undefined): CpuMeter {
  const read = () => {
    const own = process.cpuUsage();
    return { processes: pids.reduce((sum, pid) => sum + (processCpuSeconds(pid) ?? 0), 0) + (own.user + own.system) / 1e6, postgres: readPostgres?.() };
  };
  let started: ReturnType<typeof read> | undefined;
  return {
    start: () => void (started ??= read()),
    spent: () => {
      const now = read();
      const from = started ?? now;
      const postgres = now.postgres === undefined ? undefined : now.postgres - from.postgres!;
      const processes = now.processes - from.processes;
      return { seconds: processes + (postgres ?? 0), postgres, processes };
    },
  };
}

/** One rollout and one run of the bare script, on the same databases. */
interface Round {
  rolloutMs: number;
  scriptMs: number;
  rolloutCpu: CpuSpent;
  scriptCpu: CpuSpent;
}

/** Milliseconds from the rollout's creation (of `table` on every database) to the end of its last task run; `cpu` starts when the rollout exists. */
async function rolloutTo(api: Api, databaseUrl: string, names: string[], cpu: CpuMeter, table: string): Promise<number> {
  // The default rule set (no rule for test) makes the issue SKIPPED: the rollout starts when its checks finish.
  await api.call("PATCH", "/v1/settings/WORKSPACE_APPROVAL?updateMask=workspaceApproval.rules", { value: { workspaceApproval: { rules: [] } } });
  const targets = names.map((name) => `instances/bench/databases/${name}`);
  const plan = await api.call("POST", "/v1/projects/bench/plans", { title: "ddl to 500", specs: [{ changeDatabaseConfig: { targets, statement: `create table ${table} (id int)` } }] });
  note(`rolling out to ${names.length} databases (the plan's checks run first)`);
  const issueId = String((await api.call("POST", "/v1/projects/bench/issues", { plan: plan.name })).name).split("/").at(-1)!;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    for (;;) {
      const { rows } = await client.query<{ state: string; ms: string | null }>(
        `select o.state, (extract(epoch from max(r.end_time) - o.create_time) * 1000)::text as ms
         from rollout o left join task_run r on r.project_id = o.project_id and r.rollout_id = o.id
         where o.project_id = 'bench' and o.issue_id = $1 group by o.state, o.create_time`,
        [issueId],
      );
      const row = rows[0];
      if (row) cpu.start();
      if (row?.state === "DONE") {
        await describeRuns(client, issueId);
        return Number(row.ms);
      }
      if (row?.state === "FAILED" || row?.state === "CANCELED") throw new Error(`the rollout ended ${row.state}`);
      await sleep(row ? 200 : 10);
    }
  } finally {
    await client.end();
  }
}

/** Where a rollout's time went: each run's wait for a worker and its own execution (start → end). */
async function describeRuns(client: pg.Client, issueId: string): Promise<void> {
  const { rows } = await client.query<{ runs: string; wait: string; run: string; span: string }>(
    `select count(*)::text as runs,
            round(avg(extract(epoch from r.start_time - r.create_time) * 1000))::text as wait,
            round(avg(extract(epoch from r.end_time - r.start_time) * 1000))::text as run,
            round(extract(epoch from max(r.end_time) - min(r.start_time)) * 1000)::text as span
     from task_run r join rollout o on o.project_id = r.project_id and o.id = r.rollout_id
     where o.project_id = 'bench' and o.issue_id = $1`,
    [issueId],
  );
  const stats = rows[0]!;
  note(`${stats.runs} task runs: mean wait ${stats.wait} ms, mean start → end ${stats.run} ms, first start → last end ${stats.span} ms`);
}

/** Milliseconds for the same DDL (creating `table`) on every database, WORKER_CONCURRENCY connections at a time, each in a transaction. */
async function bareScript(databaseUrl: string, names: readonly string[], table: string): Promise<number> {
  const started = performance.now();
  await inParallel(names, WORKER_CONCURRENCY, async (name) => {
    const client = new pg.Client({ connectionString: withDatabase(databaseUrl, name) });
    await client.connect();
    try {
      await client.query("begin");
      await client.query(`create table ${table} (id int)`);
      await client.query("commit");
    } finally {
      await client.end();
    }
  });
  return performance.now() - started;
}

function withDatabase(databaseUrl: string, name: string): string {
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

async function inParallel<T>(items: readonly T[], width: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) await work(items[next++]!);
  }));
}

function latencyRow(latency: Latencies, bare: Latencies): Row {
  const p50 = percentile(latency.sorted(), 50);
  const p99 = percentile(latency.sorted(), 99);
  return {
    name: "rollout.approve_to_running",
    value: round1(p50),
    unit: "ms",
    baseline: round1(percentile(bare.sorted(), 50)),
    ratio: ratioOf(percentile(bare.sorted(), 50), p50),
    targets: LATENCY_TARGETS,
    detail: {
      p50Ms: p50,
      p99Ms: p99,
      baselineP50Ms: percentile(bare.sorted(), 50),
      baselineP99Ms: percentile(bare.sorted(), 99),
      note: "baseline: bare graphile-worker job dispatch",
    },
  };
}

function cpuRow(rounds: readonly Round[]): Row {
  const { rolloutCpu: rollout, scriptCpu: script } = medianRound(rounds, (r) => r.scriptCpu.seconds / r.rolloutCpu.seconds);
  const parts = (spent: CpuSpent) => `${round2(spent.processes)} s in Node${spent.postgres === undefined ? "" : `, ${round2(spent.postgres)} s in PostgreSQL`}`;
  const scope = rollout.postgres === undefined ? "the API server, the worker and this process (PostgreSQL not readable)" : "both PostgreSQL servers (the store's and the targets'), the API server, the worker and this process";
  return {
    name: "rollout.ddl_500_cpu",
    value: round2(rollout.seconds),
    unit: "cpu-s",
    baseline: round2(script.seconds),
    ratio: ratioOf(script.seconds, rollout.seconds),
    detail: { note: `CPU seconds of ${scope}, the median of ${rounds.length} rounds: rollout ${parts(rollout)}; bare script ${parts(script)}` },
  };
}

/** `targetsApart`: the targets' server ran on cores of its own (placeServers); else everything shared the CPUs. */
function throughputRow(rounds: readonly Round[], targetsApart: boolean): Row {
  const timeRatio = (r: Round) => r.scriptMs / r.rolloutMs;
  const { rolloutMs, scriptMs } = medianRound(rounds, timeRatio);
  const each = rounds.map((r) => round2(timeRatio(r))).join(", ");
  return {
    name: "rollout.ddl_500",
    value: round1(rolloutMs),
    unit: "ms",
    baseline: round1(scriptMs),
    ratio: ratioOf(scriptMs, rolloutMs),
    targets: [THROUGHPUT_TARGET],
    detail: { note: `${DATABASES} databases, ${WORKER_CONCURRENCY} at a time, ${targetsApart ? "on a targets' server with cores of its own" : "the targets' server sharing the CPUs with the platform"}; the median of ${rounds.length} rounds (ratios ${each})` },
  };
}

/** The round whose `ratio` is the median (the lower middle one of an even count). */
function medianRound(rounds: readonly Round[], ratio: (round: Round) => number): Round {
  const sorted = [...rounds].sort((a, b) => ratio(a) - ratio(b));
  return sorted[Math.floor((sorted.length - 1) / 2)]!;
}

function round1(value: number): number {
  return Math.round(value * 10) / 10;
}

function round2(value: number): number {
  return Math.round(value * 100) / 100;
}
