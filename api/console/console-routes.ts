// The web console served by the API process at `/` (contract §19.5,
// decision 0091): the files `npm run build:web` writes to the console
// directory, through @fastify/static. Hashed files under /assets/ are cached
// for a year; index.html and the other top-level files are revalidated on
// every use, so a new build is picked up at once. A browser navigating to a
// path no route serves gets index.html, the console routing itself
// (console-paths.ts); everything else keeps the API's JSON 404.
import { existsSync } from "node:fs";
import { join } from "node:path";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { Logger } from "../../shared/platform/index.ts";
import { sendNotFound } from "../transport/error-reply.ts";
import { setConsoleHeaders } from "./console-headers.ts";
import { isConsoleNavigation } from "./console-paths.ts";

const YEAR_MS = 365 * 24 * 60 * 60 * 1000;

export interface ConsoleOptions {
  /** The built console: index.html, assets/ and the other top-level files. */
  dir: string;
  logger: Logger;
}

/** Registers the console's routes and the not-found handler; sets no other state. */
export async function registerConsole(app: FastifyInstance, { dir, logger }: ConsoleOptions): Promise<void> {
  const built = existsSync(join(dir, "index.html"));
  if (built) await serveBuiltFiles(app, dir);
  else {
    logger.warn({ dir }, "the web console is not built: / answers how to build it (npm run build:web)");
    app.get("/", (_req, reply) => sendNotBuilt(reply, dir));
  }
  app.setNotFoundHandler((req: FastifyRequest, reply: FastifyReply) => {
    if (!isConsoleNavigation(req)) return sendNotFound(req, reply);
    return built ? reply.sendFile("index.html", dir) : sendNotBuilt(reply, dir);
  });
}

async function serveBuiltFiles(app: FastifyInstance, dir: string): Promise<void> {
  // Top-level files, each a route of its own (none shadows another path);
  // this registration's options also serve the fallback's index.html.
  await app.register(fastifyStatic, {
    root: dir,
    wildcard: false,
    globIgnore: ["assets/**"],
    cacheControl: false,
    preCompressed: true,
    setHeaders: (reply) => {
      setConsoleHeaders(reply);
      reply.header("cache-control", "no-cache");
    },
  });
  if (!existsSync(join(dir, "assets"))) return;
  // Hashed names: a new build writes new names, so a name is never reused.
  await app.register(fastifyStatic, {
    root: join(dir, "assets"),
    prefix: "/assets/",
    decorateReply: false,
    index: false,
    maxAge: YEAR_MS,
    immutable: true,
    preCompressed: true,
    setHeaders: setConsoleHeaders,
  });
}

function sendNotBuilt(reply: FastifyReply, dir: string): FastifyReply {
  setConsoleHeaders(reply);
  const text =
    `The web console is not built: ${dir} has no index.html.\n` +
    "Build it with `npm run build:web`, then restart the server. The API answers at /v1 meanwhile.\n";
  return reply.code(404).header("cache-control", "no-cache").type("text/plain; charset=utf-8").send(text);
}
