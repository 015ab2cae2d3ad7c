// The worker process (Procfile `worker`): runs background jobs; the leader
// among workers also runs the periodic runners.
import { checkSecretKey } from "../shared/governance/index.ts";
import { createDb, createMetrics, createSecretBox, loadSecretKey, openStore, runProcess } from "../shared/platform/index.ts";
import { startWorker } from "./worker.ts";

await runProcess("worker", async ({ config, logger, onStop }) => {
  const secrets = createSecretBox(await loadSecretKey(config, logger));
  const store = await openStore(config, logger);
  onStop(() => store.close());
  const db = await createDb(store.url, logger);
  onStop(() => db.end());
  await checkSecretKey(db, secrets);
  // Recorded for the job code's sake; a standalone worker serves no /metrics.
  const metrics = createMetrics({ threadPoolSize: config.threadPoolSize });
  const worker = await startWorker({ url: store.url, db, logger, secrets, metrics });
  onStop(() => worker.stop());
  logger.info("worker started");
});
