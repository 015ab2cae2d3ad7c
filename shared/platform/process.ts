// The life of every entry point: read the config, start, and stop on
// SIGTERM/SIGINT. What start-up opens is registered with onStop and closed in
// reverse order — after a drain, and also when start-up fails half-way.
// Exit codes: a bad flag 2, a failed start (migrations included) 1, a clean stop 0.
import { ConfigError, loadConfig, type Config, type PortRole } from "./config.ts";
import { createLogger, type Logger } from "./logger.ts";

export interface ProcessContext {
  config: Config;
  logger: Logger;
  /** Registers how to close something start-up opened; the last registered closes first. */
  onStop(close: () => Promise<void>): void;
}

const DRAIN_TIMEOUT_MS = 30_000;

export async function runProcess(name: string, start: (context: ProcessContext) => Promise<void>, portRole: PortRole = "api"): Promise<void> {
  const config = configOrExit(name, portRole);
  const logger = createLogger({ json: config.jsonLogging, debug: config.debug });
  const closers: (() => Promise<void>)[] = [];
  const stopAll = async () => {
    for (const close of closers.splice(0).reverse()) {
      await close().catch((error: unknown) => logger.error({ error }, "a component did not stop cleanly"));
    }
  };
  let started = false;
  let stopRequested = false;
  const stopAndExit = () => {
    const force = setTimeout(() => {
      logger.error("shutdown took too long; exiting");
      process.exit(1);
    }, DRAIN_TIMEOUT_MS);
    force.unref();
    void stopAll().then(() => {
      logger.info(`${name} stopped`);
      logger.flush();
      process.exit(0);
    });
  };
  const onSignal = (signal: NodeJS.Signals) => {
    if (stopRequested) {
      logger.warn({ signal }, "second signal: exiting without waiting");
      process.exit(1);
    }
    stopRequested = true;
    logger.info({ signal }, `${name} is shutting down`);
    if (started) stopAndExit(); // during start-up, the stop follows once start returns
  };
  process.on("SIGTERM", onSignal);
  process.on("SIGINT", onSignal);
  try {
    await start({ config, logger, onStop: (close) => void closers.push(close) });
  } catch (error) {
    logger.fatal({ error }, `${name} failed to start`);
    await stopAll();
    logger.flush();
    process.exit(1);
  }
  started = true;
  if (stopRequested) stopAndExit();
}

function configOrExit(name: string, portRole: PortRole): Config {
  try {
    return loadConfig(process.argv.slice(2), process.env, portRole);
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error;
    process.stderr.write(`${name}: ${error.message}\n`);
    process.exit(2);
  }
}
