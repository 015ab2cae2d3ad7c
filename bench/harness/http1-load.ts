// HTTP/1.1 load with autocannon's programmatic API: a discarded warm-up run,
// then the measured run, on `connections` keep-alive connections. Latencies
// are taken from its per-response events (its histogram keeps whole ms only).
import autocannon, { type SetupRequest } from "autocannon";
import { withCpuUse } from "./cpu.ts";
import { Latencies, percentile, type LoadResult } from "./load-result.ts";

export interface Http1Target {
  url: string;
  method: "GET" | "POST";
  headers?: Record<string, string>;
  body?: string | Buffer;
  /** Headers that change with every request (e.g. a client address); called once per request. */
  perRequestHeaders?: () => Record<string, string>;
}

export interface LoadSettings {
  connections: number;
  warmupS: number;
  durationS: number;
  /** The server child, for its CPU use. */
  serverPid: number;
}

export async function http1Load(target: Http1Target, settings: LoadSettings): Promise<LoadResult> {
  const options = {
    url: target.url,
    method: target.method,
    headers: target.headers ?? {},
    body: target.body,
    connections: settings.connections,
    ...(target.perRequestHeaders && { requests: [{ setupRequest: withHeaders(target.perRequestHeaders) }] }),
  };
  if (settings.warmupS > 0) await autocannon({ ...options, duration: settings.warmupS });
  const latencies = new Latencies();
  const run = () => {
    const instance = autocannon({ ...options, duration: settings.durationS });
    instance.on("response", (_client, status, _bytes, ms) => {
      if (status >= 200 && status < 300) latencies.add(ms);
    });
    return Promise.resolve(instance);
  };
  const measured = await withCpuUse(settings.serverPid, run);
  const result = measured.result;
  const ok = result["2xx"];
  const sorted = latencies.sorted();
  return {
    rps: result.duration > 0 ? ok / result.duration : 0,
    p50Ms: percentile(sorted, 50),
    p99Ms: percentile(sorted, 99),
    ok,
    failed: result.errors + result.non2xx, // errors include timeouts
    serverCpu: measured.serverCpu,
    serverMainThreadCpu: measured.serverMainThreadCpu,
    generatorCpu: measured.generatorCpu,
  };
}

function withHeaders(headers: () => Record<string, string>): SetupRequest {
  return (request) => ({ ...request, headers: { ...request.headers, ...headers() } });
}
