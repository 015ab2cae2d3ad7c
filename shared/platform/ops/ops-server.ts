// The ops port of a process that serves no API (a standalone worker):
// /healthz, /readyz and /metrics (contract §15.2, §15.3) on a bare node:http
// server, so that the worker's job metrics are scraped in the split topology.
// Other paths answer 404 in the contract's error shape (§1.1).
import { once } from "node:events";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Db } from "../db.ts";
import type { Logger } from "../logger.ts";
import { exposition, type Metrics } from "../metrics.ts";
import { checkReadiness, readinessReply } from "./readiness.ts";

export interface OpsServerOptions {
  port: number;
  db: Db;
  metrics: Metrics;
  logger: Logger;
}

export interface OpsServer {
  port: number;
  /** From now on /readyz answers 503, while the process drains its work. */
  beginShutdown(): void;
  close(): Promise<void>;
}

interface Reply {
  status: number;
  contentType: string;
  body: string;
}

// The API's server timeouts (contract §15.6).
const HEADERS_TIMEOUT_MS = 30_000;
const KEEP_ALIVE_TIMEOUT_MS = 65_000;

export async function startOpsServer(options: OpsServerOptions): Promise<OpsServer> {
  let shuttingDown = false;
  const readiness = { db: options.db, isShuttingDown: () => shuttingDown };
  const routes: Record<string, () => Promise<Reply>> = {
    "/healthz": async () => json(200, { status: "ok" }),
    "/readyz": async () => {
      const { status, body } = readinessReply(await checkReadiness(readiness));
      return json(status, body);
    },
    "/metrics": async () => ({ status: 200, contentType: options.metrics.registry.contentType, body: await exposition(options.metrics) }),
  };
  const server = createServer({ headersTimeout: HEADERS_TIMEOUT_MS, keepAliveTimeout: KEEP_ALIVE_TIMEOUT_MS }, (req, res) => {
    void answer(req, routes, options.logger).then((reply) => send(req, res, reply));
  });
  server.listen(options.port, "::");
  await once(server, "listening");
  const port = (server.address() as AddressInfo).port;
  options.logger.info({ port }, `ops listening on port ${port}`);
  return {
    port,
    beginShutdown: () => void (shuttingDown = true),
    close: async () => {
      const closed = once(server, "close");
      server.close();
      server.closeIdleConnections();
      await closed;
    },
  };
}

async function answer(req: IncomingMessage, routes: Record<string, () => Promise<Reply>>, logger: Logger): Promise<Reply> {
  const path = (req.url ?? "/").split("?")[0]!;
  const route = Object.hasOwn(routes, path) ? routes[path] : undefined;
  if (!route || (req.method !== "GET" && req.method !== "HEAD")) return json(404, { code: "not_found", message: `no route for ${req.method} ${path}` });
  try {
    return await route();
  } catch (error) {
    logger.error({ error, path }, "ops request failed");
    return json(500, { code: "internal", message: `could not answer ${path}` });
  }
}

function send(req: IncomingMessage, res: ServerResponse, reply: Reply): void {
  res.writeHead(reply.status, { "content-type": reply.contentType, "content-length": Buffer.byteLength(reply.body) });
  res.end(req.method === "HEAD" ? undefined : reply.body);
}

function json(status: number, body: object): Reply {
  return { status, contentType: "application/json; charset=utf-8", body: JSON.stringify(body) };
}
