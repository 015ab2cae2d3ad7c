// The worker process (Procfile `worker`): runs background jobs; the leader
// among workers also runs the periodic runners. Its ops port (--port, 8081 by
// default) serves /healthz, /readyz and /metrics.
import { checkSecretKey } from "../shared/governance/index.ts";
import { countJobs, createDb, createMetrics, createSecretBox, loadSecretKey, openStore, runProcess, startOpsServer } from "../shared/platform/index.ts";
import { startWorker } from "./worker.ts";

await runProcess(
  "worker",
  async ({ config, logger, onStop }) => {
    const secrets = createSecretBox(await loadSecretKey(config, logger));
    const store = await openStore(config, logger);
    onStop(() => store.close());
    const db = await createDb(store.url, logger);
    onStop(() => db.end());
    await checkSecretKey(db, secrets);
    const metrics = createMetrics({ threadPoolSize: config.threadPoolSize, countJobs: () => countJobs(db) });
    // Closed after the worker has drained, so /readyz answers 503 throughout the drain.
    const ops = await startOpsServer({ port: config.port, db, metrics, logger });
    onStop(() => ops.close());
    const worker = await startWorker({ url: store.url, db, logger, secrets, metrics });
    onStop(() => worker.stop());
    onStop(async () => ops.beginShutdown()); // the first step of a stop
    logger.info("worker started");
  },
  "worker",
);
