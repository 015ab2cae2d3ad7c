// Authenticated reads through the real server: GetProject and ListIssues
// (a page of 50) over REST and Connect JSON, each with a bearer access token,
// against bare Fastify routes on plain pg that run an authenticated read's
// statements per request (bench/bare-authenticated-read-server.ts: the
// session lookup, the IAM policies, the project row, the issue page) and
// answer the same JSON, in one run. Target ≥ 0.6 of the bare speed.
//   - Seeding goes through the API as a user would: a workspace admin signs
//     in, creates the project, an instance on a targets' server of its own
//     (an embedded PostgreSQL) in the prod environment, and 50 plans, each
//     with its issue. A worker runs while they are made (the instance's
//     sync, the plans' checks), so that the issues settle (PENDING, with the
//     approval template of the default prod rule); the worker and the
//     targets' server stop before anything is measured.
//   - The server runs with --rate-limit-per-user 0: the one user makes every
//     call, thousands a second.
//   - Every answer is checked before the load: the project's title, 50
//     issues, the Connect answer equal to the REST one and the bare route's
//     equal to both.
//   - Per read, the server's two forms alternate with the bare route in
//     ROUNDS rounds, the bare route first and last, and each side's runs are
//     averaged (as in the actuator figure).
import { isDeepStrictEqual } from "node:util";
import { setTimeout as sleep } from "node:timers/promises";
import { adopt, adminQuery, apiClient, type Api, createWorkspaceAdmin, jobsEnded, type Json } from "../harness/api-client.ts";
import { startChildProcess, startChildServer, type ChildServer } from "../harness/child-server.ts";
import { stderrLogger } from "../harness/database.ts";
import { http1Load, type Http1Target } from "../harness/http1-load.ts";
import { alternateLoads, type LoadTarget, throughputRow } from "../harness/load-result.ts";
import { note, type BenchContext, type Figure, type Row, type Target } from "../harness/types.ts";
import { startEmbeddedServer } from "../../test/helpers/postgres-server.ts";

const LOGIN = { loginId: "bench-reader", password: "Bench-Reader-Pass-9" };
const PROJECT = { id: "reads", title: "Authenticated reads" };
const INSTANCE = "reads";
const TARGET_DATABASE = "svc_bench_reads";
const ISSUES = 50;
/** The server's main pool (shared/platform/db.ts): the bare routes get as many connections. */
const POOL_SIZE = 20;
const TARGET: Target = { on: "ratio", min: 0.6 };
const ROUNDS = 2;

interface Read {
  name: string;
  restPath: string;
  rpcPath: string;
  rpcBody: Json;
  /** Throws unless the answer is the expected one. */
  check(answer: Json): void;
}

const READS: Read[] = [
  {
    name: "get_project",
    restPath: `/v1/projects/${PROJECT.id}`,
    rpcPath: "/svc.v1.ProjectService/GetProject",
    rpcBody: { name: `projects/${PROJECT.id}` },
    check: (answer) => {
      if (answer.title !== PROJECT.title) throw new Error(`GetProject answered the title ${JSON.stringify(answer.title)}`);
    },
  },
  {
    name: "list_issues",
    restPath: `/v1/projects/${PROJECT.id}/issues?pageSize=${ISSUES}`,
    rpcPath: "/svc.v1.IssueService/ListIssues",
    rpcBody: { parent: `projects/${PROJECT.id}`, pageSize: ISSUES },
    check: (answer) => {
      const count = (answer.issues as unknown[] | undefined)?.length ?? 0;
      if (count !== ISSUES || answer.nextPageToken) throw new Error(`ListIssues answered ${count} issues${answer.nextPageToken ? " and a next page" : ""}, not ${ISSUES}`);
    },
  },
];

const restTarget = (port: number, read: Read, token: string): Http1Target => ({
  url: `http://127.0.0.1:${port}${read.restPath}`,
  method: "GET",
  headers: { authorization: `Bearer ${token}` },
});

const connectTarget = (port: number, read: Read, token: string): Http1Target => ({
  url: `http://127.0.0.1:${port}${read.rpcPath}`,
  method: "POST",
  headers: { authorization: `Bearer ${token}`, "content-type": "application/json", "connect-protocol-version": "1" },
  body: JSON.stringify(read.rpcBody),
});

export const authenticatedReadFigure: Figure = {
  name: "authenticated_read",
  description: `GetProject and ListIssues (${ISSUES} issues) with a bearer token over REST and Connect JSON vs bare Fastify + pg routes running the same statements (session lookup included)`,
  async run(context: BenchContext): Promise<Row[]> {
    await createWorkspaceAdmin(context.databaseUrl, LOGIN);
    const servers: ChildServer[] = [];
    try {
      const app = await startChildServer("server-process.ts", { BENCH_PG_URL: context.databaseUrl, BENCH_SERVER_FLAGS: "--rate-limit-per-user 0" }, context.cpuProfDir);
      servers.push(app);
      const api = await apiClient(app.port, LOGIN);
      await seed(api, context.databaseUrl);
      const bare = await startChildServer("bare-authenticated-read-server.ts", { BENCH_PG_URL: context.databaseUrl, BENCH_POOL_SIZE: String(POOL_SIZE) }, context.cpuProfDir);
      servers.push(bare);
      const rows: Row[] = [];
      for (const read of READS) {
        await checkAnswers(read, app.port, bare.port, api.token);
        rows.push(...(await measure(context, read, app, bare, api.token)));
      }
      return rows;
    } finally {
      for (const server of servers.reverse()) await server.stop();
    }
  },
};

/** The project, an instance with one database on a targets' server, and ISSUES issues, settled. */
async function seed(api: Api, databaseUrl: string): Promise<void> {
  const targets = await startEmbeddedServer(stderrLogger());
  const worker = await startChildProcess("worker-process.ts", { BENCH_PG_URL: databaseUrl });
  try {
    await adminQuery(targets.adminUrl, `create database ${TARGET_DATABASE}`);
    await api.call("POST", `/v1/projects?projectId=${PROJECT.id}`, { title: PROJECT.title });
    const url = new URL(targets.adminUrl);
    await api.call("POST", `/v1/instances?instanceId=${INSTANCE}`, {
      engine: "POSTGRES",
      environment: "environments/prod",
      dataSources: [{ type: "ADMIN", host: url.hostname, port: url.port || "5432", username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) }],
    });
    await adopt(api, databaseUrl, { instance: INSTANCE, project: PROJECT.id }, [TARGET_DATABASE]);
    const target = `instances/${INSTANCE}/databases/${TARGET_DATABASE}`;
    note(`creating ${ISSUES} plans and their issues`);
    for (let i = 0; i < ISSUES; i++) {
      const plan = await api.call("POST", `/v1/projects/${PROJECT.id}/plans`, {
        title: `Add table reads_${i}`,
        specs: [{ changeDatabaseConfig: { targets: [target], statement: `create table reads_${i} (id bigint primary key, note text)` } }],
      });
      await api.call("POST", `/v1/projects/${PROJECT.id}/issues`, { plan: plan.name, description: `Adds table reads_${i} for the authenticated-read bench.` });
    }
    await jobsEnded(databaseUrl, "plan.check");
    await issuesSettled(api);
  } finally {
    await worker.stop();
    await targets.stop();
  }
}

async function issuesSettled(api: Api): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const { issues = [] } = await api.call("GET", `/v1/projects/${PROJECT.id}/issues?pageSize=${ISSUES}`);
    const checking = (issues as Json[]).filter((issue) => issue.approvalStatus === "CHECKING").length;
    if (checking === 0) {
      note(`${issues.length} issues, approval ${[...new Set((issues as Json[]).map((issue) => issue.approvalStatus))].join(", ")}`);
      return;
    }
    if (attempt === 600) throw new Error(`${checking} issues are still CHECKING`);
    await sleep(100);
  }
}

/** One call to each target: the server's two forms must answer alike and pass the read's check, and the bare route must answer the same. */
async function checkAnswers(read: Read, appPort: number, barePort: number, token: string): Promise<void> {
  const answer = async (target: Http1Target) => {
    const res = await fetch(target.url, { method: target.method, headers: target.headers, body: target.body as string | undefined });
    const json = (await res.json()) as Json;
    if (!res.ok) throw new Error(`${read.name}: ${target.url} answered HTTP ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
  const rest = await answer(restTarget(appPort, read, token));
  read.check(rest);
  if (!isDeepStrictEqual(await answer(connectTarget(appPort, read, token)), rest)) throw new Error(`${read.name}: Connect JSON and REST answer differently`);
  const bare = await answer(restTarget(barePort, read, token));
  const difference = firstDifference(bare, rest);
  if (difference) throw new Error(`${read.name}: the bare route answers differently from the server at ${difference}`);
}

/** Where two JSON values first differ ("issues.0.approvers: …"), or undefined when they are equal. */
function firstDifference(a: unknown, b: unknown, path = "$"): string | undefined {
  if (isDeepStrictEqual(a, b)) return undefined;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return `${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const key of keys) {
    const found = firstDifference((a as Json)[key], (b as Json)[key], `${path}.${key}`);
    if (found) return found;
  }
  return `${path}: ${JSON.stringify(a)} vs ${JSON.stringify(b)}`;
}

async function measure(context: BenchContext, read: Read, app: ChildServer, bare: ChildServer, token: string): Promise<Row[]> {
  const load = (label: string, server: ChildServer, target: Http1Target): LoadTarget => ({
    label,
    run: (durationS) => http1Load(target, { ...context, durationS, serverPid: server.pid }),
  });
  const {
    baseline,
    targets: [rest, connect],
  } = await alternateLoads(ROUNDS, context.durationS, load(`${read.name}, bare`, bare, restTarget(bare.port, read, token)), [
    load(`${read.name}, REST`, app, restTarget(app.port, read, token)),
    load(`${read.name}, Connect JSON`, app, connectTarget(app.port, read, token)),
  ]);
  const drift = baseline.drift > 0.1 ? `baseline runs differ by ${Math.round(baseline.drift * 100)}%` : undefined;
  return [
    throughputRow(`authenticated_read.${read.name}_rest`, rest!, baseline, TARGET, drift),
    throughputRow(`authenticated_read.${read.name}_connect_json`, connect!, baseline, TARGET, drift),
  ];
}

