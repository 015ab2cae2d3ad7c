// The API process (Procfile `web`): serves every RPC; runs no jobs.
import { countJobs } from "../shared/jobs/jobs.store.ts";
import { createDb } from "../shared/platform/db.ts";
import { createMetrics } from "../shared/platform/metrics.ts";
import { runProcess } from "../shared/platform/process.ts";
import { openStore } from "../shared/platform/store.ts";
import { createSettingCache } from "../shared/settings/setting-cache.ts";
import { startApi } from "./server.ts";

await runProcess("api", async (context) => {
  const store = await openStore(context.config, context.logger);
  const db = await createDb(store.url, context.logger);
  const settings = createSettingCache(store.url, db, context.logger);
  const metrics = createMetrics({ threadPoolSize: context.config.threadPoolSize, countJobs: () => countJobs(db) });
  const api = await startApi({ ...context, db, metrics, settings, isLeader: () => false });
  return async () => {
    await api.stop();
    await settings.close();
    await db.end();
    await store.close();
  };
});
