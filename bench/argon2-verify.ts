// The login figure's baseline: argon2.verify of one stored hash and its
// password, nothing else, with BENCH_CONCURRENCY verifications in flight (the
// login figure's connections) on the libuv thread pool the parent sized with
// UV_THREADPOOL_SIZE, as the server's. A discarded warm-up of BENCH_WARMUP_S,
// then BENCH_DURATION_S measured; prints one JSON LoadResult line (serverCpu:
// the cores this process used; serverMainThreadCpu: those of its main thread)
// on stdout.
import argon2 from "argon2";
import { Latencies, percentile, type LoadResult } from "./harness/load-result.ts";

const hash = process.env.BENCH_HASH;
const password = process.env.BENCH_PASSWORD;
if (!hash || !password) throw new Error("BENCH_HASH and BENCH_PASSWORD are required");
const concurrency = Number(process.env.BENCH_CONCURRENCY);
const warmupS = Number(process.env.BENCH_WARMUP_S ?? 0);
const durationS = Number(process.env.BENCH_DURATION_S);
if (!(concurrency >= 1) || !(durationS > 0)) throw new Error("BENCH_CONCURRENCY and BENCH_DURATION_S must be positive numbers");
if (!(await argon2.verify(hash, password))) throw new Error("the password does not match the hash");

if (warmupS > 0) await verifyFor(warmupS);
const cpuStart = process.cpuUsage();
const mainStart = process.threadCpuUsage();
const started = performance.now();
const measured = await verifyFor(durationS);
const cpu = process.cpuUsage(cpuStart);
const main = process.threadCpuUsage(mainStart);
const elapsedS = (performance.now() - started) / 1000; // the window and the verifications still in flight at its end
const result: LoadResult = {
  ...measured,
  serverCpu: Math.round(((cpu.user + cpu.system) / 1e6 / elapsedS) * 100) / 100,
  serverMainThreadCpu: (main.user + main.system) / 1e6 / elapsedS,
};
process.stdout.write(`${JSON.stringify(result)}\n`);

/** `concurrency` loops of verifications until the deadline; only those completed inside the window count. */
async function verifyFor(seconds: number): Promise<LoadResult> {
  const latencies = new Latencies();
  let ok = 0;
  let failed = 0;
  const deadline = performance.now() + seconds * 1000;
  const loop = async () => {
    while (performance.now() < deadline) {
      const sent = performance.now();
      const matches = await argon2.verify(hash!, password!);
      const done = performance.now();
      if (done > deadline) break;
      if (matches) {
        ok++;
        latencies.add(done - sent);
      } else failed++;
    }
  };
  await Promise.all(Array.from({ length: concurrency }, loop));
  const sorted = latencies.sorted();
  return { rps: ok / seconds, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), ok, failed };
}
