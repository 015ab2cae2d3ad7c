// Starts the API on its port and returns the drain: /readyz turns 503,
// in-flight calls finish, then the server closes.
import type { ProcessContext } from "../shared/platform/index.ts";
import type { Resources } from "../shared/resources.ts";
import { buildApp } from "./app.ts";

export interface ApiDeps extends ProcessContext, Omit<Resources, "store"> {
  isLeader: () => boolean;
}

export interface RunningApi {
  port: number;
  stop(): Promise<void>;
}

export async function startApi(deps: ApiDeps): Promise<RunningApi> {
  const app = await buildApp(deps);
  await app.fastify.listen({ port: deps.config.port, host: "::" });
  const address = app.fastify.server.address();
  const port = typeof address === "object" && address ? address.port : deps.config.port;
  deps.logger.info({ port }, `API listening on port ${port}`);
  return {
    port,
    async stop() {
      app.beginShutdown();
      await app.fastify.close();
    },
  };
}
