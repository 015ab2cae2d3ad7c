// Opens the metadata store: PG_URL, or the embedded PostgreSQL when unset;
// then migrates it (fail fast). Used by every process type.
import { ConfigError, type Config } from "./config.ts";
import { startEmbeddedPostgres } from "./embedded-postgres.ts";
import type { Logger } from "./logger.ts";
import { migrate } from "./migrate.ts";
import { redactUrl } from "./postgres-url.ts";

export interface Store {
  url: string;
  /** Set when this process runs the embedded server (the quick start). */
  embedded?: { superuserUrl: string; dataDir: string };
  /** Stops the embedded server when this process runs it. */
  close(): Promise<void>;
}

export async function openStore(config: Config, logger: Logger): Promise<Store> {
  let store: Store;
  if (config.pgUrl) {
    logger.info({ store: redactUrl(config.pgUrl) }, "using the PostgreSQL metadata store given by PG_URL");
    store = { url: config.pgUrl, close: async () => {} };
  } else {
    if (config.ha) throw new ConfigError("--ha needs a shared metadata store: set PG_URL (the embedded PostgreSQL serves one process)");
    const embedded = await startEmbeddedPostgres(config.dataDir, logger);
    store = { url: embedded.url, embedded: { superuserUrl: embedded.superuserUrl, dataDir: config.dataDir }, close: () => embedded.stop() };
  }
  try {
    await migrate(store.url, logger);
  } catch (error) {
    await store.close();
    throw error;
  }
  return store;
}
