// Operational logs (contract §15.5). JSON lines with --enable-json-logging,
// human-readable lines otherwise, each bounded in size (log-line-bound.ts),
// each with the fields of the work at hand (log-context.ts: correlation id,
// resources). Audit records are not written here.
import { relative } from "node:path";
import { fileURLToPath } from "node:url";
import { pino, stdSerializers, stdTimeFunctions, type DestinationStream, type Logger as PinoLogger } from "pino";
import pretty from "pino-pretty";
import { currentLogFields, type LogFields } from "./log-context.ts";
import { boundedLogLine } from "./log-line-bound.ts";

export type Logger = PinoLogger;

export interface LoggerOptions {
  json: boolean;
  debug: boolean;
  /** Where lines go; stdout when absent. */
  destination?: DestinationStream;
}

const LEVEL_LABELS: Record<string, string> = {
  trace: "DEBUG",
  debug: "DEBUG",
  info: "INFO",
  warn: "WARN",
  error: "ERROR",
  fatal: "ERROR",
};

const projectRoot = fileURLToPath(new URL("../../", import.meta.url));

export function createLogger(options: LoggerOptions): Logger {
  const level = options.debug ? "debug" : "info";
  if (!options.json) {
    const stream = options.destination ?? pretty({ colorize: process.stdout.isTTY, sync: true, ignore: "pid,hostname" });
    return pino(
      { level, errorKey: "error", serializers: { error: stdSerializers.err }, mixin: (_line, _level, logger) => workFields(logger), hooks: { streamWrite: boundedLogLine } },
      stream,
    );
  }
  return pino(
    {
      level,
      timestamp: stdTimeFunctions.isoTimeNano,
      messageKey: "msg",
      errorKey: "error",
      serializers: { error: stdSerializers.err },
      formatters: {
        level: (label) => ({ level: LEVEL_LABELS[label] ?? label.toUpperCase() }),
        bindings: () => ({}),
      },
      mixin: (_line, _level, logger) => ({ ...workFields(logger), source: callSite() }),
      hooks: { streamWrite: boundedLogLine },
    },
    options.destination ?? pino.destination({ sync: false }),
  );
}

/**
 * The fields of the work at hand that the logger has not bound itself (a
 * request's logger binds its correlation_id), so that no key is written twice;
 * a line's own fields win over them.
 */
function workFields(logger: PinoLogger): LogFields {
  const fields = currentLogFields();
  if (!fields) return {};
  const bound = (logger as unknown as Record<symbol, string | undefined>)[pino.symbols.chindingsSym];
  if (!bound) return { ...fields };
  return Object.fromEntries(Object.entries(fields).filter(([key]) => !bound.includes(`"${key}":`)));
}

interface Source {
  function: string;
  file: string;
  line: number;
}

/**
 * Where the log call was made: the first frame in the project's own code, or,
 * for lines that libraries write (Fastify, graphile-worker), the first frame
 * of that library outside pino.
 */
function callSite(): Source | undefined {
  const originalPrepare = Error.prepareStackTrace;
  const originalLimit = Error.stackTraceLimit;
  const holder: { stack?: NodeJS.CallSite[] } = {};
  Error.prepareStackTrace = (_, frames) => frames;
  Error.stackTraceLimit = 16;
  Error.captureStackTrace(holder, callSite);
  const frames = holder.stack ?? [];
  Error.prepareStackTrace = originalPrepare;
  Error.stackTraceLimit = originalLimit;
  let library: NodeJS.CallSite | undefined;
  for (const frame of frames) {
    const file = frame.getFileName() ?? "";
    if (!file || file.startsWith("node:") || file.includes("/node_modules/pino") || file.endsWith("/platform/logger.ts")) continue;
    if (!file.includes("/node_modules/")) return source(frame);
    library ??= frame;
  }
  return library && source(library);
}

function source(frame: NodeJS.CallSite): Source {
  const file = frame.getFileName() ?? "";
  const path = file.startsWith("file://") ? fileURLToPath(file) : file;
  return { function: frame.getFunctionName() ?? "<anonymous>", file: relative(projectRoot, path), line: frame.getLineNumber() ?? 0 };
}
