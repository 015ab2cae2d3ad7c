// The entry points as real processes: --ha failover, SIGTERM drain, JSON
// logs, flag errors, and the embedded PostgreSQL surviving an unclean stop.
import assert from "node:assert/strict";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { createTestDatabase, type TestDatabase } from "./helpers/db.ts";
import { killAllServers, runUntilExit, spawnServer, type ServerProcess } from "./helpers/server-process.ts";

const TEST_TIMEOUT = { timeout: 60_000 };

after(() => killAllServers());

describe("processes", () => {
  let database: TestDatabase;
  before(async () => {
    database = await createTestDatabase();
  });
  after(async () => {
    await killAllServers();
    await database?.drop();
  });

  const start = (args: string[] = []) => spawnServer({ entry: "main.ts", args: ["--port", "0", ...args], env: { PG_URL: database.url } });

  it("--ha: exactly one replica leads, and another takes over within 2 s of a SIGKILL", TEST_TIMEOUT, async (t) => {
    const replicas = await Promise.all([start(["--ha"]), start(["--ha"])]);
    const info = await Promise.all(replicas.map((r) => getJson(r, "/v1/actuator/info")));
    for (const { body } of info) assert.equal(body.ha, true);
    const leader = await poll(5_000, async () => {
      const leading = await Promise.all(replicas.map(isLeader));
      return leading.filter(Boolean).length === 1 ? replicas[leading.indexOf(true)] : undefined;
    }, "exactly one replica reporting leader: true");
    const survivor = replicas.find((r) => r !== leader)!;
    assert.equal(await isLeader(survivor), false);

    const killedAt = performance.now();
    leader.kill("SIGKILL");
    await poll(5_000, async () => (await isLeader(survivor)) || undefined, "the survivor taking the lead");
    const failoverMs = performance.now() - killedAt;
    t.diagnostic(`failover took ${Math.round(failoverMs)} ms`);
    assert.ok(failoverMs < 2_000, `failover took ${Math.round(failoverMs)} ms`);
    assert.deepEqual(await leader.exited, { code: null, signal: "SIGKILL" });

    assert.deepEqual(await survivor.stop(), { code: 0, signal: null }, survivor.output());
  });

  it("drains on SIGTERM: /readyz answers 200 before, the exit code is 0", TEST_TIMEOUT, async () => {
    const server = await start();
    const ready = await getJson(server, "/readyz");
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body, { status: "ready" });
    assert.deepEqual(await server.stop(), { code: 0, signal: null }, server.output());
    assert.ok(server.logs.some((l) => l.json?.msg === "server stopped"), server.output());
  });

  it("--enable-json-logging: one JSON object per line, with time, level, msg, source and correlation_id", TEST_TIMEOUT, async () => {
    const server = await start(["--debug"]);
    const res = await getJson(server, "/v1/actuator/info", { "x-correlation-id": "test-corr-1" });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("x-correlation-id"), "test-corr-1");
    const rpc = await server.waitForLog((l) => l.json?.correlation_id === "test-corr-1" && l.json.msg === "rpc done", 5_000, "rpc done line");
    assert.equal(rpc.json!.level, "DEBUG");
    assert.equal(typeof rpc.json!.duration_ms, "number");
    assert.deepEqual(await server.stop(), { code: 0, signal: null });

    const stdout = server.logs.filter((l) => l.stream === "stdout");
    assert.ok(stdout.length > 0);
    for (const line of stdout) assert.ok(line.json, `not a JSON object: ${line.text}`);
    const listening = stdout.findIndex((l) => l.json!.msg === `API listening on port ${server.port}`);
    assert.ok(listening > 0, "the startup lines end with API listening");
    assert.ok(stdout.some((l) => String(l.json!.msg).startsWith("Server listening at")), "Fastify's own line is among them");
    for (const { json, text } of stdout.slice(0, listening + 1)) {
      assert.match(String(json!.time), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/, text);
      assert.match(String(json!.level), /^(DEBUG|INFO|WARN|ERROR)$/, text);
      assert.equal(typeof json!.msg, "string", text);
      assertSource(json!, text);
    }
  });

  it("worker/main.ts logs 'worker started', answers /readyz on its ops port and drains on SIGTERM", TEST_TIMEOUT, async () => {
    const worker = await spawnServer({ entry: "worker/main.ts", env: { PG_URL: database.url } });
    assert.deepEqual((await getJson(worker, "/readyz")).body, { status: "ready" });
    assert.deepEqual(await worker.stop(), { code: 0, signal: null }, worker.output());
  });

  it("a bad flag stops the process with exit code 2 and names the flag", TEST_TIMEOUT, async () => {
    // An unreachable store: if the flag were accepted the start would fail (exit 1), not touch a database.
    const { exit, server } = await runUntilExit({ entry: "main.ts", args: ["--port", "notaport"], env: { PG_URL: "postgres://127.0.0.1:1/none" } });
    assert.deepEqual(exit, { code: 2, signal: null }, server.output());
    const stderr = server.logs.filter((l) => l.stream === "stderr").map((l) => l.text).join("\n");
    assert.match(stderr, /--port/);
  });
});

describe("embedded PostgreSQL", () => {
  let dataDir: string;
  before(async () => {
    dataDir = await mkdtemp(join(tmpdir(), "svc-embedded-"));
  });
  after(async () => {
    await killAllServers();
    const pid = await postmasterPid(dataDir).catch(() => undefined);
    if (pid && isAlive(pid)) process.kill(pid, "SIGQUIT"); // immediate shutdown of an orphan a failed test left
    if (pid) await waitUntilGone(pid, 10_000).catch(() => undefined);
    await rm(dataDir, { recursive: true, force: true });
  });

  it("survives an unclean stop: the next start reuses the orphaned server and stops it on SIGTERM", TEST_TIMEOUT, async () => {
    const env = { PG_URL: undefined, DATABASE_URL: undefined };
    const args = ["--port", "0", "--data", dataDir];
    const first = await spawnServer({ entry: "main.ts", args, env, timeoutMs: 45_000 });
    assert.ok(first.logs.some((l) => String(l.json?.msg).startsWith("using embedded PostgreSQL")), first.output());
    const pid = await postmasterPid(dataDir);
    assert.ok(isAlive(pid));

    first.kill("SIGKILL");
    await first.exited;
    assert.ok(isAlive(pid), "the postmaster outlives a SIGKILLed server");

    const second = await spawnServer({ entry: "main.ts", args, env });
    const reuse = second.logs.find((l) => String(l.json?.msg).startsWith("reusing the embedded PostgreSQL"));
    assert.ok(reuse, second.output());
    assert.equal(reuse.json!.pid, pid);
    assert.equal((await getJson(second, "/readyz")).status, 200);

    assert.deepEqual(await second.stop(), { code: 0, signal: null }, second.output());
    await waitUntilGone(pid, 10_000);
  });

  it("stops the embedded server it started when start-up fails later (a busy port)", TEST_TIMEOUT, async () => {
    const busy = createServer().listen(0, "::");
    await once(busy, "listening");
    const port = (busy.address() as AddressInfo).port;
    try {
      const env = { PG_URL: undefined, DATABASE_URL: undefined };
      const { exit, server } = await runUntilExit({ entry: "main.ts", args: ["--port", String(port), "--data", dataDir], env, timeoutMs: 45_000 });
      assert.equal(exit.code, 1, server.output());
      await waitUntilGone(await postmasterPid(dataDir).catch(() => 0), 10_000);
    } finally {
      busy.close();
    }
  });
});

function assertSource(json: Record<string, unknown>, text: string): void {
  const source = json.source as { file?: unknown; line?: unknown; function?: unknown } | undefined;
  assert.equal(typeof source?.file, "string", `no source.file: ${text}`);
  assert.equal(typeof source?.line, "number", `no source.line: ${text}`);
  assert.equal(typeof source?.function, "string", `no source.function: ${text}`);
  assert.ok(!String(source!.file).startsWith("/"), `source.file is not relative to the project: ${text}`);
}

async function getJson(server: ServerProcess, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.baseUrl}${path}`, { headers, signal: AbortSignal.timeout(5_000) });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

async function isLeader(server: ServerProcess): Promise<boolean> {
  const { status, body } = await getJson(server, "/v1/actuator/info");
  assert.equal(status, 200);
  return body.leader === true;
}

/** Calls `probe` every 50 ms until it returns a value, for at most `ms`. */
async function poll<T>(ms: number, probe: () => Promise<T | undefined>, what: string): Promise<T> {
  const deadline = performance.now() + ms;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (performance.now() > deadline) throw new Error(`timed out after ${ms} ms waiting for ${what}`);
    await sleep(50);
  }
}

async function postmasterPid(dataDir: string): Promise<number> {
  return Number((await readFile(join(dataDir, "pg", "postmaster.pid"), "utf8")).split("\n")[0]);
}

/** True while the process exists and is not a zombie. */
function isAlive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

async function waitUntilGone(pid: number, ms: number): Promise<void> {
  await poll(ms, async () => (isAlive(pid) ? undefined : true), `postmaster ${pid} to stop`);
}
