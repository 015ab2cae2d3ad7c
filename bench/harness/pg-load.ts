// The bare baseline of a query: the same SQL sent by plain pg clients, one
// per connection, each sending its next query as soon as the previous one
// answered, for a warm-up and then a measured window.
import pg from "pg";
import { Latencies, percentile, type LoadResult } from "./load-result.ts";

export interface PgQuery {
  text: string;
  values: unknown[];
}

export interface PgLoadSettings {
  connections: number;
  warmupS: number;
  durationS: number;
}

export async function pgLoad(url: string, query: PgQuery, settings: PgLoadSettings): Promise<LoadResult> {
  const clients = await Promise.all(
    Array.from({ length: settings.connections }, async () => {
      const client = new pg.Client({ connectionString: url });
      await client.connect();
      return client;
    }),
  );
  try {
    if (settings.warmupS > 0) await run(clients, query, settings.warmupS);
    return await run(clients, query, settings.durationS);
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
}

async function run(clients: pg.Client[], query: PgQuery, durationS: number): Promise<LoadResult> {
  const latencies = new Latencies();
  let ok = 0;
  let failed = 0;
  const deadline = performance.now() + durationS * 1000;
  await Promise.all(
    clients.map(async (client) => {
      while (performance.now() < deadline) {
        const sent = performance.now();
        try {
          await client.query(query);
          const done = performance.now();
          if (done > deadline) break;
          ok++;
          latencies.add(done - sent);
        } catch {
          failed++;
        }
      }
    }),
  );
  const sorted = latencies.sorted();
  return { rps: ok / durationS, p50Ms: percentile(sorted, 50), p99Ms: percentile(sorted, 99), ok, failed };
}
