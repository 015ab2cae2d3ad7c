// Starts a bench server script in a child process (pinned to the server core)
// and waits for the first stdout line, {"port": N}. stop() sends SIGTERM and
// waits, so that a --cpu-prof profile gets written. startChildProcess does
// the same for a process with no port (a worker), whose first line is
// {"ready": true}. runChildScript runs a script that is not a server (a
// baseline) the same way, to its end.
import { spawn, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import { pinnedToServerCore } from "./cpu.ts";
import { note } from "./types.ts";

export interface ChildServer {
  port: number;
  pid: number;
  stop(): Promise<void>;
}

const START_TIMEOUT_MS = 60_000;

/** script: a file name under bench/, e.g. "server-process.ts". */
export async function startChildServer(script: string, env: Record<string, string>, cpuProfDir?: string): Promise<ChildServer> {
  const child = spawnPinned(script, env, cpuProfDir);
  const port = await firstPort(child, script);
  note(`${script} listening on 127.0.0.1:${port} (pid ${child.pid})`);
  return {
    port,
    pid: child.pid!,
    stop: () => stopChild(child),
  };
}

/** Starts a bench process that serves no port (a worker) and waits for its first line, {"ready": true}. */
export async function startChildProcess(script: string, env: Record<string, string>, cpuProfDir?: string): Promise<Omit<ChildServer, "port">> {
  const child = spawnPinned(script, env, cpuProfDir);
  const line = await firstLine(child, script);
  if (line["ready"] !== true) {
    child.kill("SIGKILL");
    throw new Error(`${script} printed ${JSON.stringify(line)}, not {"ready": true}`);
  }
  note(`${script} ready (pid ${child.pid})`);
  return { pid: child.pid!, stop: () => stopChild(child) };
}

/** Runs `script` pinned to the server core until it exits 0; answers the JSON of its last stdout line. */
export async function runChildScript<T>(script: string, env: Record<string, string>, cpuProfDir?: string): Promise<T> {
  const child = spawnPinned(script, env, cpuProfDir);
  let output = "";
  child.stdout!.on("data", (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number | null>((resolve) => child.once("exit", resolve));
  if (code !== 0) throw new Error(`${script} exited with code ${code}`);
  const last = output.trim().split("\n").at(-1) ?? "";
  return JSON.parse(last) as T;
}

/** script: a file name under bench/, started with this Node, pinned to the server core, stdout piped. */
function spawnPinned(script: string, env: Record<string, string>, cpuProfDir: string | undefined): ChildProcess {
  const path = fileURLToPath(new URL(`../${script}`, import.meta.url));
  const nodeArgs = cpuProfDir ? ["--cpu-prof", `--cpu-prof-dir=${cpuProfDir}`, path] : [path];
  const [command, args] = pinnedToServerCore(process.execPath, nodeArgs);
  return spawn(command, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
}

/** The JSON of the child's first stdout line. */
function firstLine(child: ChildProcess, script: string): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let buffered = "";
    const timer = setTimeout(() => fail(new Error(`${script} did not report within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    const fail = (error: Error) => {
      clearTimeout(timer);
      child.kill("SIGKILL");
      reject(error);
    };
    child.once("exit", (code, signal) => fail(new Error(`${script} exited before it was ready (code ${code}, signal ${signal})`)));
    child.stdout!.on("data", (chunk: Buffer) => {
      buffered += chunk.toString();
      const newline = buffered.indexOf("\n");
      if (newline < 0) return;
      clearTimeout(timer);
      child.removeAllListeners("exit");
      child.stdout!.removeAllListeners("data");
      child.stdout!.resume();
      try {
        resolve(JSON.parse(buffered.slice(0, newline)) as Record<string, unknown>);
      } catch {
        fail(new Error(`${script} printed no JSON: ${buffered.slice(0, newline)}`));
      }
    });
  });
}

async function firstPort(child: ChildProcess, script: string): Promise<number> {
  const line = await firstLine(child, script);
  const port = Number(line["port"]);
  if (Number.isInteger(port) && port > 0) return port;
  child.kill("SIGKILL");
  throw new Error(`${script} printed no port: ${JSON.stringify(line)}`);
}

function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const force = setTimeout(() => child.kill("SIGKILL"), 15_000);
    child.once("exit", () => {
      clearTimeout(force);
      resolve();
    });
    child.kill("SIGTERM");
  });
}
