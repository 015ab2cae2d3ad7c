// Resident set size of a process (VmRSS in /proc/<pid>/status), sampled
// while some work runs, to show how much memory the work adds.
import { readFileSync } from "node:fs";

export interface RssUse<T> {
  result: T;
  /** RSS before the work started, in MiB; undefined without /proc. */
  beforeMb?: number;
  /** Highest RSS seen while the work ran, in MiB. */
  peakMb?: number;
}

export function rssMb(pid: number): number | undefined {
  try {
    const kb = /^VmRSS:\s+(\d+)\s+kB$/m.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

export async function withRssSampling<T>(pid: number, work: () => Promise<T>, intervalMs = 25): Promise<RssUse<T>> {
  const beforeMb = rssMb(pid);
  let peakMb = beforeMb;
  const timer = setInterval(() => {
    const now = rssMb(pid);
    if (now !== undefined && (peakMb === undefined || now > peakMb)) peakMb = now;
  }, intervalMs);
  try {
    const result = await work();
    return { result, beforeMb, peakMb };
  } finally {
    clearInterval(timer);
  }
}
