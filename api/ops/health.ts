// /healthz (the process serves) and /readyz (the store answers, migrations
// done, not shutting down) — contract §15.2.
import type { FastifyInstance } from "fastify";
import { type Db, ping } from "../../shared/platform/index.ts";

export interface Readiness {
  db: Db;
  /** True from the start of shutdown, so the proxy drains this replica. */
  isShuttingDown: () => boolean;
}

const STORE_CHECK_TIMEOUT_MS = 1_000;

export function registerHealthRoutes(app: FastifyInstance, readiness: Readiness): void {
  app.get("/healthz", async () => ({ status: "ok" }));
  app.get("/readyz", async (_req, reply) => {
    if (readiness.isShuttingDown()) return reply.code(503).send({ status: "unavailable", reason: "shutting down" });
    const reason = await storeProblem(readiness.db);
    if (reason) return reply.code(503).send({ status: "unavailable", reason });
    return { status: "ready" };
  });
}

async function storeProblem(db: Db): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve("the metadata store did not answer within 1 s"), STORE_CHECK_TIMEOUT_MS);
  });
  const check = ping(db).then(
    () => undefined,
    (error: Error) => `the metadata store is unreachable: ${error.message}`,
  );
  try {
    return await Promise.race([check, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
