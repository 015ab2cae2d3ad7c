// The world of a retention clean-up test (the query history, the
// notification delivery log): a test app whose store the test fills, and a
// worker over it, which as the leader schedules the hourly clean-ups at once.
import { createDb } from "../../shared/platform/db.ts";
import type { JobName } from "../../shared/platform/index.ts";
import { createMetrics } from "../../shared/platform/metrics.ts";
import { startWorker } from "../../worker/worker.ts";
import { startTestApp, type TestApp } from "./app.ts";
import { adminQuery } from "./db.ts";
import { eventually, testSecrets } from "./instances.ts";
import { quietLogger } from "./logger.ts";

export interface CleanupWorld {
  app: TestApp;
  /** Runs the clean-up job again until `done` holds (the worker's settings cache hears of a change a little later). */
  cleanUpUntil(done: () => Promise<boolean>): Promise<void>;
  close(): Promise<void>;
}

/** Starts the app, lets `seed` fill its store, then starts the worker whose leader runs `job`. */
export async function startCleanupWorld(job: JobName, seed: (app: TestApp) => Promise<void>): Promise<CleanupWorld> {
  const app = await startTestApp();
  await seed(app);
  const workerDb = await createDb(app.database.url, quietLogger(), { maxPoolSize: 4 });
  const worker = await startWorker({ url: app.database.url, db: workerDb, logger: quietLogger(), secrets: testSecrets(), metrics: createMetrics({ threadPoolSize: 4 }), webhookAllowPrivate: false, externalUrl: undefined });
  const sql = (text: string) => adminQuery(text, app.database.url);
  const cleanUp = async () => {
    await sql(`select graphile_worker.add_job('${job}', '{}'::json)`);
    await eventually(async () => (await sql("select count(*)::int as n from graphile_worker.jobs")).rows[0].n === 0);
  };
  return {
    app,
    cleanUpUntil: (done) =>
      eventually(async () => {
        await cleanUp();
        return done();
      }),
    async close() {
      await worker.stop();
      await workerDb.end();
      await app.close();
    },
  };
}
