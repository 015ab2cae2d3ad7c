// What every API-serving process opens at start-up, and closes last.
import { countJobs } from "./jobs/jobs.store.ts";
import { createDb, type Db } from "./platform/db.ts";
import { createMetrics, type Metrics } from "./platform/metrics.ts";
import type { ProcessContext } from "./platform/process.ts";
import { openStore, type Store } from "./platform/store.ts";
import { createSettingCache, type SettingCache } from "./settings/setting-cache.ts";

export interface Resources {
  store: Store;
  db: Db;
  settings: SettingCache;
  metrics: Metrics;
  close(): Promise<void>;
}

export async function openResources({ config, logger }: ProcessContext): Promise<Resources> {
  const store = await openStore(config, logger);
  const db = await createDb(store.url, logger);
  const settings = createSettingCache(store.url, db, logger);
  const metrics = createMetrics({ threadPoolSize: config.threadPoolSize, countJobs: () => countJobs(db) });
  return {
    store,
    db,
    settings,
    metrics,
    async close() {
      await settings.close();
      await db.end();
      await store.close();
    },
  };
}
