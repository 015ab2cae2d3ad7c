// The worker process (Procfile `worker`): runs background jobs; the leader
// among workers also runs the periodic runners. Its ops port (--port, 8081 by
// default) serves /healthz, /readyz and /metrics.
import { runProcess, startOpsServer } from "../shared/platform/index.ts";
import { openCore } from "../shared/resources.ts";
import { startWorker } from "./worker.ts";

await runProcess(
  "worker",
  async (context) => {
    const { config, logger, onStop } = context;
    const { store, db, secrets, metrics } = await openCore(context);
    // Closed after the worker has drained, so /readyz answers 503 throughout the drain.
    const ops = await startOpsServer({ port: config.port, db, metrics, logger });
    onStop(() => ops.close());
    const worker = await startWorker({
      url: store.url,
      db,
      logger,
      secrets,
      metrics,
      externalUrl: config.externalUrl,
      webhookAllowPrivate: config.webhookAllowPrivate,
    });
    onStop(() => worker.stop());
    onStop(async () => ops.beginShutdown()); // the first step of a stop
    logger.info("worker started");
  },
  "worker",
);
