// The baseline: a bare Fastify route returning a fixed JSON object (the real
// server's answer, passed in BENCH_BARE_BODY) at GET /v1/actuator/info — no
// hooks, no logger, no database. It uses the app's one-port server factory so
// that, like the real server, it answers HTTP/1.1 and h2c on the same port
// (the sniff runs once per connection; benchmark connections are persistent),
// with Node's own writes (it does not hold them to the end of the turn).
// Prints {"port": N} on stdout; SIGTERM stops it.
import Fastify from "fastify";
import { createHybridServer, DEFAULT_TIMEOUTS } from "../api/server-factory.ts";

const body = JSON.parse(process.env.BENCH_BARE_BODY ?? "null") as unknown;
if (body === null || typeof body !== "object") throw new Error("BENCH_BARE_BODY must hold a JSON object");

const fastify = Fastify({
  serverFactory: (handler) => createHybridServer(handler as Parameters<typeof createHybridServer>[0], DEFAULT_TIMEOUTS, false),
});
fastify.get("/v1/actuator/info", async () => body);
await fastify.listen({ port: 0, host: "127.0.0.1" });
const address = fastify.server.address();
process.stdout.write(`${JSON.stringify({ port: typeof address === "object" && address ? address.port : 0 })}\n`);

process.once("SIGTERM", () => {
  fastify.close().finally(() => process.exit(0));
});
