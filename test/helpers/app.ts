// Starts the real API in-process on a loopback port, over its own cloned
// database, with the test-only TranscodingService next to the svc.v1 services.
import type { DescService } from "@bufbuild/protobuf";
import { buildApp, svcServices, type AppDeps } from "../../api/app.ts";
import type { ServiceRegistration } from "../../api/transport/services.ts";
import { loadConfig } from "../../shared/platform/config.ts";
import { countJobs } from "../../shared/platform/jobs/jobs.store.ts";
import { createDb, type Db } from "../../shared/platform/db.ts";
import { createMetrics } from "../../shared/platform/metrics.ts";
import { createSecretBox } from "../../shared/platform/secrets/secret-box.ts";
import { parseSecretKey } from "../../shared/platform/secrets/secret-key.ts";
import { createSettingCache, type SettingReader } from "../../shared/governance/settings/setting-cache.ts";
import { createChangeFeed, type ChangeFeed } from "../../shared/platform/watch/change-feed.ts";
import { bootstrapWorkspace, type BootstrapOptions } from "../../shared/identity/user/bootstrap.ts";
import { createAccessCache } from "../../shared/identity/access-cache.ts";
import { ReadConnections } from "../../shared/sql-editor/index.ts";
import { createTestDatabase, type TestDatabase } from "./db.ts";
import { quietLogger } from "./logger.ts";
import { transcodingService } from "./transcoding-service.ts";

export interface TestApp {
  baseUrl: string;
  port: number;
  db: Db;
  database: TestDatabase;
  /** The change notices the watch streams follow. */
  changes: ChangeFeed;
  /** The setting cache the server reads (a test that writes a setting by SQL waits for it to see the change). */
  settings: SettingReader;
  /** The SQL Editor's kept target connections, closed with the app. */
  readConnections: ReadConnections;
  /** The services the server answers, test-only ones included. */
  services: DescService[];
  close(): Promise<void>;
}

export interface TestAppOptions {
  flags?: string[];
  deps?: Partial<AppDeps>;
  database?: TestDatabase;
  /** Creates the first administrator, as a first start does. */
  bootstrap?: BootstrapOptions;
}

export async function startTestApp(options: TestAppOptions = {}): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const logger = quietLogger();
  const db = await createDb(database.url, logger, { maxPoolSize: 5 });
  const config = loadConfig(["--port", "0", ...(options.flags ?? [])], {});
  if (options.bootstrap) await bootstrapWorkspace(db, options.bootstrap, logger);
  const sideDb = await createDb(database.url, logger, { maxPoolSize: 3, side: true });
  const settings = createSettingCache(database.url, sideDb, logger);
  const changes = createChangeFeed(database.url, logger);
  const access = createAccessCache(database.url, db, logger);
  const metrics = createMetrics({ threadPoolSize: 4, countJobs: () => countJobs(db) });
  const secrets = createSecretBox(parseSecretKey(process.env.SVC_SECRET_KEY ?? "", "SVC_SECRET_KEY"));
  const readConnections = new ReadConnections();
  const deps: AppDeps = { config, db, sideDb, logger, metrics, settings, changes, access, secrets, readConnections, isLeader: () => false, ...options.deps };
  const services: ServiceRegistration[] = [...svcServices(deps), transcodingService];
  const app = await buildApp(deps, services);
  await app.fastify.listen({ port: 0, host: "127.0.0.1" });
  const address = app.fastify.server.address();
  const port = typeof address === "object" && address ? address.port : 0;
  let closing: Promise<void> | undefined; // a test may close the app before its fixture does
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    port,
    db,
    database,
    changes,
    settings,
    readConnections: deps.readConnections,
    services: services.map((r) => r.service),
    close() {
      closing ??= (async () => {
        app.beginShutdown();
        await app.fastify.close();
        await deps.readConnections.close();
        await settings.close();
        await changes.close();
        await access.close();
        await sideDb.end();
        await db.end();
        if (!options.database) await database.drop();
      })();
      return closing;
    },
  };
}
