// Runs an entry point (main.ts, api/main.ts, worker/main.ts) as a child
// process, the way it runs in production, with JSON logs, and records every
// output line. Every child is tracked: call killAllServers() in an `after`
// hook so that a failing test leaves no process behind.
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";

export type Entry = "main.ts" | "api/main.ts" | "worker/main.ts" | "admin.ts";

export interface LogLine {
  stream: "stdout" | "stderr";
  text: string;
  /** The parsed line when it is a JSON object. */
  json?: Record<string, unknown>;
}

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface SpawnOptions {
  entry: Entry;
  args?: string[];
  /** Merged over process.env; `undefined` removes a variable (e.g. PG_URL for the embedded store). */
  env?: Record<string, string | undefined>;
  /** How long to wait for the ready line (or, in runUntilExit, for the exit). Default 30 s. */
  timeoutMs?: number;
  /** Runs `npm start -- <args>` in this folder (a clone of the project) instead of the entry point with this Node. */
  npmStartIn?: string;
}

export interface ServerProcess {
  child: ChildProcess;
  pid: number;
  /** The API port, or a worker's ops port, once its "listening" line was seen. */
  port: number | undefined;
  baseUrl: string;
  logs: LogLine[];
  /** Settles when the process has exited and its output is read to the end. */
  exited: Promise<Exit>;
  /** Sends a signal; a no-op once the process has exited. */
  kill(signal?: NodeJS.Signals): void;
  /** Sends SIGTERM and waits (bounded) for the exit. */
  stop(timeoutMs?: number): Promise<Exit>;
  /** Waits (bounded) for a line, including lines already logged; rejects when the process exits first. */
  waitForLog(match: (line: LogLine) => boolean, timeoutMs?: number, what?: string): Promise<LogLine>;
  /** Every line, for assertion messages and text searches. */
  output(): string;
}

export class ServerExitedError extends Error {
  override name = "ServerExitedError";
  readonly exit: Exit;
  readonly logs: LogLine[];
  constructor(message: string, exit: Exit, logs: LogLine[]) {
    super(message);
    this.exit = exit;
    this.logs = logs;
  }
}

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const DEFAULT_TIMEOUT_MS = 30_000;
const live = new Set<ServerProcess>();

// Last resort when the test process exits without running its `after` hooks.
process.on("exit", () => {
  for (const server of live) server.child.kill("SIGKILL");
});

/** Starts the process without waiting for anything. */
export function launch(options: SpawnOptions): ServerProcess {
  const env: Record<string, string | undefined> = { ...process.env, ...options.env };
  delete env.NODE_TEST_CONTEXT; // the child is a server, not a node:test subprocess
  for (const [name, value] of Object.entries(env)) if (value === undefined) delete env[name];
  // Servers listen on a free port unless the test names one, so that processes of parallel tests never collide.
  const port = options.entry === "admin.ts" || options.args?.includes("--port") ? [] : ["--port", "0"];
  const args = ["--enable-json-logging", ...port, ...(options.args ?? [])];
  // npm does not pass signals on to the script, so it runs in a process group
  // of its own and signals go to the whole group, as a terminal's Ctrl-C does.
  const child = options.npmStartIn
    ? spawn("npm", ["start", "--", ...args], { cwd: options.npmStartIn, env, stdio: ["ignore", "pipe", "pipe"], detached: true })
    : spawn(process.execPath, [options.entry, ...args], { cwd: ROOT, env, stdio: ["ignore", "pipe", "pipe"] });
  const signal = (name: NodeJS.Signals) => (options.npmStartIn ? process.kill(-child.pid!, name) : child.kill(name));
  const logs: LogLine[] = [];
  const listeners = new Set<() => void>();
  const notify = () => {
    for (const listener of [...listeners]) listener();
  };
  let exit: Exit | undefined;

  const read = (stream: "stdout" | "stderr") =>
    createInterface({ input: child[stream]!, crlfDelay: Infinity }).on("line", (text) => {
      const line: LogLine = { stream, text, json: parseObject(text) };
      logs.push(line);
      const msg = line.json?.msg;
      if (server.port === undefined && typeof msg === "string" && /^(API|ops) listening on port \d+$/.test(msg)) {
        server.port = Number(line.json!.port);
      }
      notify();
    });
  read("stdout");
  read("stderr");

  const exited = new Promise<Exit>((resolve) => {
    child.once("close", (code, signal) => {
      exit = { code, signal };
      live.delete(server);
      resolve(exit);
      notify();
    });
  });

  const server: ServerProcess = {
    child,
    pid: child.pid!,
    port: undefined,
    get baseUrl() {
      if (server.port === undefined) throw new Error("the server has not logged its port");
      return `http://127.0.0.1:${server.port}`;
    },
    logs,
    exited,
    kill(name = "SIGTERM") {
      if (!exit && child.exitCode === null && child.signalCode === null) signal(name);
    },
    async stop(timeoutMs = DEFAULT_TIMEOUT_MS) {
      server.kill("SIGTERM");
      return withTimeout(exited, timeoutMs, () => `${options.entry} did not exit within ${timeoutMs} ms of SIGTERM\n${server.output()}`);
    },
    waitForLog(match, timeoutMs = DEFAULT_TIMEOUT_MS, what = "the expected log line") {
      return new Promise<LogLine>((resolve, reject) => {
        let seen = 0;
        const check = () => {
          for (; seen < logs.length; seen++) {
            if (match(logs[seen]!)) return finish(() => resolve(logs[seen]!));
          }
          if (exit) {
            const message = `${options.entry} exited (${describeExit(exit)}) before ${what}\n${server.output()}`;
            finish(() => reject(new ServerExitedError(message, exit!, logs)));
          }
        };
        const timer = setTimeout(
          () => finish(() => reject(new Error(`${options.entry}: no ${what} within ${timeoutMs} ms\n${server.output()}`))),
          timeoutMs,
        );
        const finish = (settle: () => void) => {
          clearTimeout(timer);
          listeners.delete(check);
          settle();
        };
        listeners.add(check);
        check();
      });
    },
    output: () => logs.map((l) => (l.stream === "stderr" ? `[stderr] ${l.text}` : l.text)).join("\n"),
  };
  live.add(server);
  return server;
}

/**
 * Starts the process and resolves once it is ready: the "API listening" line
 * (then `port` is set) or, for worker/main.ts, "worker started" (its ops port
 * is set by then). Rejects with a ServerExitedError when the process exits
 * first, and kills it on timeout.
 */
export async function spawnServer(options: SpawnOptions): Promise<ServerProcess> {
  const server = launch(options);
  const what = options.entry === "worker/main.ts" ? `"worker started" line` : `"API listening" line`;
  try {
    await server.waitForLog(isReadyLine(server, options.entry), options.timeoutMs ?? DEFAULT_TIMEOUT_MS, what);
  } catch (error) {
    server.kill("SIGKILL");
    throw error;
  }
  return server;
}

/** Runs a process that is expected to fail: resolves to its exit; throws (after killing it) if it becomes ready or hangs. */
export async function runUntilExit(options: SpawnOptions): Promise<{ exit: Exit; server: ServerProcess }> {
  const server = launch(options);
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  // waitForLog rejects when the process exits first (expected) or on timeout.
  const started = await server.waitForLog(isReadyLine(server, options.entry), timeoutMs, "a ready line").then(() => true, () => false);
  try {
    if (started) throw new Error(`${options.entry} started although it was expected to exit`);
    return { exit: await withTimeout(server.exited, 1_000, () => `${options.entry} did not exit within ${timeoutMs} ms`), server };
  } catch (error) {
    server.kill("SIGKILL");
    throw new Error(`${(error as Error).message}\n${server.output()}`);
  }
}

/** SIGKILLs every process still running and waits (bounded) for them to go. */
export async function killAllServers(timeoutMs = 10_000): Promise<void> {
  const running = [...live];
  for (const server of running) server.kill("SIGKILL");
  await withTimeout(Promise.all(running.map((s) => s.exited)), timeoutMs, () => "a spawned server survived SIGKILL");
}

/** A worker is ready at "worker started" (its ops port is logged before it); the other servers once their API port is known. */
function isReadyLine(server: ServerProcess, entry: Entry): (line: LogLine) => boolean {
  return entry === "worker/main.ts" ? (line) => line.json?.msg === "worker started" : () => server.port !== undefined;
}

export function describeExit(exit: Exit): string {
  return exit.signal ? `signal ${exit.signal}` : `code ${exit.code}`;
}

function parseObject(text: string): Record<string, unknown> | undefined {
  if (!text.startsWith("{")) return undefined;
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

export function withTimeout<T>(promise: Promise<T>, ms: number, message: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(message())), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
