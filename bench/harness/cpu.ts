// CPU placement: servers under test on core 0, this process (the load
// generator) on the other cores, so the two never share a core. Needs
// taskset and at least two cores; otherwise everything floats.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import { note } from "./types.ts";

const SERVER_CORE = "0";

function hasTaskset(): boolean {
  try {
    execFileSync("taskset", ["-V"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** Read before this process pins itself: availableParallelism() then counts only its own cores. */
const CORES = availableParallelism();
const pinning = CORES >= 2 && hasTaskset();

/** The command line that starts `args` pinned to the server core when pinning is possible. */
export function pinnedToServerCore(command: string, args: string[]): [string, string[]] {
  return pinning ? ["taskset", ["-c", SERVER_CORE, command, ...args]] : [command, args];
}

/** Where a process may run: the server core, the other cores, or anywhere. */
export type Place = "server-core" | "other-cores" | "anywhere";

function coresOf(place: Place): string {
  const last = CORES - 1;
  return place === "server-core" ? SERVER_CORE : place === "other-cores" ? `1-${last}` : `0-${last}`;
}

/**
 * Moves this process (every thread) off the server core. Call it after the
 * embedded PostgreSQL has started, so that PostgreSQL stays unpinned.
 */
export function pinSelfToGeneratorCores(): void {
  if (!pinning) {
    note("not pinning CPUs (needs taskset and 2+ cores): servers and load generator share the CPUs");
    return;
  }
  place([process.pid], "other-cores");
  note(`servers pinned to core ${SERVER_CORE}, load generator to core(s) ${coresOf("other-cores")}`);
}

/**
 * Moves processes (every thread of each) to `where`; the children a process
 * starts later inherit it. False when pinning is not possible or a process
 * may not be moved (another user's server): those before it were moved.
 */
export function place(pids: readonly number[], where: Place): boolean {
  if (!pinning) return false;
  try {
    for (const pid of pids) execFileSync("taskset", ["-a", "-p", "-c", coresOf(where), String(pid)], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

/** CPU seconds (user + system) a process has used so far; undefined without /proc. */
export function processCpuSeconds(pid: number): number | undefined {
  return statFields(pid, (fields) => (Number(fields[11]) + Number(fields[12])) / 100); // utime + stime, in USER_HZ (100 on Linux)
}

/**
 * CPU seconds a process's main thread (in Node, the one running JavaScript)
 * has used so far, without its thread pool's; undefined without /proc.
 */
export function mainThreadCpuSeconds(pid: number): number | undefined {
  return statFields(pid, (fields) => (Number(fields[11]) + Number(fields[12])) / 100, `/proc/${pid}/task/${pid}/stat`);
}

/** The process's parent, from /proc; undefined when it is gone. */
export function parentPid(pid: number): number | undefined {
  return statFields(pid, (fields) => Number(fields[1]));
}

/** CPU seconds of `pid` and of its ended children so far (utime + stime + cutime + cstime). */
export function processTreeCpuSeconds(pid: number): number | undefined {
  return statFields(pid, (f) => (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / 100);
}

/** The live children of `pid`. */
export function childPids(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (/^\d+$/.test(entry) && parentPid(Number(entry)) === pid) children.push(Number(entry));
  }
  return children;
}

function statFields<T>(pid: number, pick: (fields: string[]) => T, path = `/proc/${pid}/stat`): T | undefined {
  try {
    const stat = readFileSync(path, "utf8");
    return pick(stat.slice(stat.lastIndexOf(")") + 2).split(" "));
  } catch {
    return undefined;
  }
}

/** Measures CPU use of the server child (all of it, and its main thread) and of this process over `work`, in cores. */
export async function withCpuUse<T>(
  serverPid: number,
  work: () => Promise<T>,
): Promise<{ result: T; serverCpu?: number; serverMainThreadCpu?: number; generatorCpu: number }> {
  const serverStart = processCpuSeconds(serverPid);
  const mainStart = mainThreadCpuSeconds(serverPid);
  const selfStart = process.cpuUsage();
  const started = performance.now();
  const result = await work();
  const elapsedS = (performance.now() - started) / 1000;
  const self = process.cpuUsage(selfStart);
  const cores = (start: number | undefined, end: number | undefined) => (start === undefined || end === undefined ? undefined : (end - start) / elapsedS);
  const serverCpu = cores(serverStart, processCpuSeconds(serverPid));
  return {
    result,
    serverCpu: serverCpu === undefined ? undefined : round2(serverCpu),
    // Unrounded: a main thread's share is often a few hundredths of a core.
    serverMainThreadCpu: cores(mainStart, mainThreadCpuSeconds(serverPid)),
    generatorCpu: round2((self.user + self.system) / 1e6 / elapsedS),
  };
}

function round2(n: number): number {
  return Math.round(n * 100) / 100;
}
