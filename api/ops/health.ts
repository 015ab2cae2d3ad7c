// /healthz (the process serves) and /readyz (the store answers, migrations
// done, not shutting down) — contract §15.2, with the platform's readiness
// check that a worker's ops server answers too.
import type { FastifyInstance } from "fastify";
import { checkReadiness, type Readiness, readinessReply } from "../../shared/platform/index.ts";

export function registerHealthRoutes(app: FastifyInstance, readiness: Readiness): void {
  app.get("/healthz", async () => ({ status: "ok" }));
  app.get("/readyz", async (_req, reply) => {
    const { status, body } = readinessReply(await checkReadiness(readiness));
    return reply.code(status).send(body);
  });
}
