// /debug/pprof/* with --debug only (contract §15.4): CPU and heap profiles in
// pprof format. Without --debug these routes do not exist (404).
import type { FastifyInstance } from "fastify";
import { invalidArgument, quoted } from "../../shared/platform/index.ts";

const HEAP_SAMPLE_INTERVAL_BYTES = 512 * 1024;
const HEAP_STACK_DEPTH = 64;

export async function registerDebugRoutes(app: FastifyInstance): Promise<void> {
  const pprof = await import("@datadog/pprof");
  pprof.heap.start(HEAP_SAMPLE_INTERVAL_BYTES, HEAP_STACK_DEPTH);
  app.addHook("onClose", async () => pprof.heap.stop());
  app.get("/debug/pprof/", async (_req, reply) =>
    reply.type("text/plain").send("profile?seconds=N  CPU profile (N ≤ 60, default 30)\nheap               heap profile\n"),
  );
  app.get<{ Querystring: { seconds?: string } }>("/debug/pprof/profile", async (req, reply) => {
    const seconds = profileSeconds(req.query.seconds);
    const profile = await pprof.time.profile({ durationMillis: seconds * 1000, intervalMicros: 10_000, withContexts: true, collectCpuTime: true });
    return reply.type("application/octet-stream").header("content-disposition", 'attachment; filename="profile.pb.gz"').send(await pprof.encode(profile));
  });
  app.get("/debug/pprof/heap", async (_req, reply) => {
    const profile = pprof.heap.profile();
    return reply.type("application/octet-stream").header("content-disposition", 'attachment; filename="heap.pb.gz"').send(await pprof.encode(profile));
  });
}

function profileSeconds(raw: string | undefined): number {
  if (raw === undefined) return 30;
  const seconds = Number(raw);
  if (!/^\d+$/.test(raw) || seconds < 1 || seconds > 60) throw invalidArgument(`seconds must be an integer from 1 to 60, got ${quoted(raw)}`);
  return seconds;
}
