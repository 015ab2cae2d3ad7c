// The worker process (Procfile `worker`): runs background jobs; the leader
// among workers also runs the periodic runners.
import { createDb } from "../shared/platform/db.ts";
import { runProcess } from "../shared/platform/process.ts";
import { openStore } from "../shared/platform/store.ts";
import { startWorker } from "./worker.ts";

await runProcess("worker", async ({ config, logger, onStop }) => {
  const store = await openStore(config, logger);
  onStop(() => store.close());
  const db = await createDb(store.url, logger);
  onStop(() => db.end());
  const worker = await startWorker({ url: store.url, db, logger });
  onStop(() => worker.stop());
  logger.info("worker started");
});
