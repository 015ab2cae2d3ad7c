// The all-in-one process (`npm start`, for small installs): the API and a
// worker sharing one store connection setup. The API and the worker never
// import each other; this composition root is the only place that holds both.
import { startApi } from "./api/server.ts";
import { countJobs } from "./shared/jobs/jobs.store.ts";
import { createDb } from "./shared/platform/db.ts";
import { createMetrics } from "./shared/platform/metrics.ts";
import { runProcess } from "./shared/platform/process.ts";
import { openStore } from "./shared/platform/store.ts";
import { createSettingCache } from "./shared/settings/setting-cache.ts";
import { startWorker } from "./worker/worker.ts";

await runProcess("server", async (context) => {
  const store = await openStore(context.config, context.logger);
  const db = await createDb(store.url, context.logger);
  const settings = createSettingCache(store.url, db, context.logger);
  const metrics = createMetrics({ threadPoolSize: context.config.threadPoolSize, countJobs: () => countJobs(db) });
  const worker = await startWorker({ url: store.url, db, logger: context.logger });
  const api = await startApi({ ...context, db, metrics, settings, isLeader: worker.leadership.isLeader });
  return async () => {
    await api.stop();
    await worker.stop();
    await settings.close();
    await db.end();
    await store.close();
  };
});
