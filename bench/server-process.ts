// The server under test: the real app from buildApp (every transport, every
// hook, JSON logs at info level on stderr) on 127.0.0.1, port 0, over the
// already migrated database in BENCH_PG_URL, with the resources (pool,
// settings cache, metrics) opened the way API processes open them.
// Prints {"port": N} on stdout; SIGTERM stops it.
import { pino } from "pino";
import { buildApp } from "../api/app.ts";
import { loadConfig } from "../shared/platform/config.ts";
import { createLogger } from "../shared/platform/logger.ts";
import { openResources } from "../shared/resources.ts";

const url = process.env.BENCH_PG_URL;
if (!url) throw new Error("BENCH_PG_URL is required");

// As in production with --enable-json-logging, but on stderr: stdout carries the port.
const logger = createLogger({ json: true, debug: false, destination: pino.destination({ dest: 2, sync: false }) });
// BENCH_SERVER_FLAGS: further command-line flags a figure needs (space-separated).
const flags = (process.env.BENCH_SERVER_FLAGS ?? "").split(" ").filter(Boolean);
const config = loadConfig(["--port", "0", ...flags], { PG_URL: url, SVC_SECRET_KEY: process.env.SVC_SECRET_KEY });
const closers: (() => Promise<void>)[] = [];
const resources = await openResources({ config, logger, onStop: (close) => void closers.push(close) });
const app = await buildApp({ ...resources, config, logger, isLeader: () => false });
await app.fastify.listen({ port: 0, host: "127.0.0.1" });
const address = app.fastify.server.address();
process.stdout.write(`${JSON.stringify({ port: typeof address === "object" && address ? address.port : 0 })}\n`);

process.once("SIGTERM", () => {
  app.beginShutdown();
  void (async () => {
    await app.fastify.close();
    for (const close of closers.reverse()) await close().catch(() => undefined);
    process.exit(0); // a clean exit writes the --cpu-prof profile
  })();
});
