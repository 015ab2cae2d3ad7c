// Which requests the console's index.html answers: a browser navigating (a
// GET or HEAD that accepts text/html) to a path no route serves, outside the
// API's own paths. Those keep their JSON 404 whatever the Accept header says,
// so a mistyped /v1 path never answers a page with status 200.
import type { FastifyRequest } from "fastify";

/** Whole first segments the API owns (ops, docs, directory sync), and /assets, whose misses are stale files. */
const API_SEGMENTS = new Set(["v1", "healthz", "readyz", "metrics", "openapi.json", "debug", "scim", "assets"]);

/** First-segment prefixes of the RPC paths: /svc.v1.<Service>/<Method>, and gRPC's own services. */
const RPC_PREFIXES = ["svc.v1.", "grpc."];

export function isConsoleNavigation(req: FastifyRequest): boolean {
  if (req.method !== "GET" && req.method !== "HEAD") return false;
  if (!(req.headers.accept ?? "").includes("text/html")) return false;
  return !isApiPath(req.url);
}

export function isApiPath(url: string): boolean {
  const path = url.split("?", 1)[0]!;
  const first = path.slice(1).split("/", 1)[0]!;
  return API_SEGMENTS.has(first) || RPC_PREFIXES.some((prefix) => first.startsWith(prefix));
}
