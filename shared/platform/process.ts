// The life of every entry point: read the config, start, and drain on
// SIGTERM/SIGINT. A bad flag exits with 2, a failed start (migrations
// included) with 1, a clean drain with 0.
import { ConfigError, loadConfig, type Config } from "./config.ts";
import { createLogger, type Logger } from "./logger.ts";

export interface ProcessContext {
  config: Config;
  logger: Logger;
}

/** Starts the process; resolves to the function that drains and stops it. */
export type Start = (context: ProcessContext) => Promise<() => Promise<void>>;

const DRAIN_TIMEOUT_MS = 30_000;

export async function runProcess(name: string, start: Start): Promise<void> {
  let config: Config;
  try {
    config = loadConfig(process.argv.slice(2), process.env);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${name}: ${error.message}\n`);
    process.exit(2);
  }
  const logger = createLogger({ json: config.jsonLogging, debug: config.debug });
  let stop: () => Promise<void>;
  try {
    stop = await start({ config, logger });
  } catch (error) {
    logger.fatal({ error }, `${name} failed to start`);
    logger.flush();
    process.exitCode = 1;
    setImmediate(() => process.exit(1));
    return;
  }
  let stopping = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopping) {
      logger.warn({ signal }, "second signal: exiting without waiting");
      process.exit(1);
    }
    stopping = true;
    logger.info({ signal }, `${name} is shutting down`);
    const force = setTimeout(() => {
      logger.error("shutdown took too long; exiting");
      process.exit(1);
    }, DRAIN_TIMEOUT_MS);
    force.unref();
    stop().then(
      () => {
        logger.info(`${name} stopped`);
        logger.flush();
        process.exit(0);
      },
      (error: unknown) => {
        logger.error({ error }, "shutdown failed");
        process.exit(1);
      },
    );
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
}
