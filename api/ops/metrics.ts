// /metrics, and the HTTP metrics of every request, by route template.
import type { FastifyInstance, FastifyRequest } from "fastify";
import { exposition, type Metrics } from "../../shared/platform/index.ts";
import { protocolOfContentType, type ApiProtocol } from "../transport/context.ts";

const kStart = Symbol("request start");
/** `/<package>.<Service>/<Method>`: the route of a Connect, gRPC or gRPC-Web call. */
const RPC_ROUTE = /^\/[a-z][a-z0-9_]*(\.[a-z0-9_]+)*\.[A-Z]\w*\/[A-Z]\w*$/;

export function registerMetrics(app: FastifyInstance, metrics: Metrics): void {
  // Callback hooks, not async ones: every request runs them, and an async hook
  // costs a promise and a microtask turn each (as do the other per-request hooks).
  app.addHook("onRequest", (req, _reply, done) => {
    (req as FastifyRequest & { [kStart]?: bigint })[kStart] = process.hrtime.bigint();
    done();
  });
  app.addHook("onResponse", (req, reply, done) => {
    const start = (req as FastifyRequest & { [kStart]?: bigint })[kStart];
    if (start === undefined) return done();
    const route = req.routeOptions.url ?? "unmatched";
    const labels = { method: req.method, route, status_code: String(reply.statusCode), protocol: protocolOf(req) };
    metrics.httpRequestDuration.observe(labels, Number(process.hrtime.bigint() - start) / 1e9);
    done();
  });
  app.get("/metrics", async (_req, reply) => {
    return reply.type(metrics.registry.contentType).send(await exposition(metrics));
  });
}

/** Whether each route template is an RPC route, tested once per template (the routes are fixed at start-up). */
const rpcRoutes = new Map<string, boolean>();

function protocolOf(req: FastifyRequest): ApiProtocol | "http" {
  if (req.routeOptions.config && "binding" in req.routeOptions.config) return "rest";
  const url = req.routeOptions.url ?? "";
  let rpc = rpcRoutes.get(url);
  if (rpc === undefined) rpcRoutes.set(url, (rpc = RPC_ROUTE.test(url)));
  return rpc ? protocolOfContentType(req.headers["content-type"]) : "http";
}
