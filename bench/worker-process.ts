// The worker under test: the real job runner (startWorker) over the already
// migrated database in BENCH_PG_URL, with the secret key of the run. Once
// the runner has started it prints {"ready": true}. SIGTERM stops it.
import { pino } from "pino";
import { createDb } from "../shared/platform/db.ts";
import { loadConfig } from "../shared/platform/config.ts";
import { createLogger } from "../shared/platform/logger.ts";
import { createMetrics } from "../shared/platform/metrics.ts";
import { createSecretBox } from "../shared/platform/secrets/secret-box.ts";
import { loadSecretKey } from "../shared/platform/secrets/secret-key.ts";
import { startWorker } from "../worker/worker.ts";

const url = process.env.BENCH_PG_URL;
if (!url) throw new Error("BENCH_PG_URL is required");

const logger = createLogger({ json: true, debug: false, destination: pino.destination({ dest: 2, sync: false }) });
// SVC_WEBHOOK_ALLOW_PRIVATE: notifications may reach the bench's loopback receivers.
const config = loadConfig([], { PG_URL: url, SVC_SECRET_KEY: process.env.SVC_SECRET_KEY, SVC_WEBHOOK_ALLOW_PRIVATE: process.env.SVC_WEBHOOK_ALLOW_PRIVATE });
const db = await createDb(url, logger);
const secrets = createSecretBox(await loadSecretKey(config, logger));
const worker = await startWorker({ url, db, logger, secrets, metrics: createMetrics({ threadPoolSize: config.threadPoolSize }), webhookAllowPrivate: config.webhookAllowPrivate, externalUrl: config.externalUrl });
process.stdout.write(`${JSON.stringify({ ready: true })}\n`);

process.once("SIGTERM", () => {
  void (async () => {
    await worker.stop();
    await db.end();
    process.exit(0);
  })();
});
