// A logger for tests: silent unless SVC_TEST_LOGS=1.
import { createLogger, type Logger } from "../../shared/platform/logger.ts";

export function quietLogger(): Logger {
  const logger = createLogger({ json: true, debug: false });
  if (process.env.SVC_TEST_LOGS !== "1") logger.level = "silent";
  return logger;
}
