// The errors a target gives when it cannot reach or use its server: one
// failed_precondition naming host:port and the kind of problem (contract §9.3),
// with any trace of the password removed from the driver's words.
import { DomainError, failedPrecondition } from "../../platform/index.ts";
import type { ConnectionConfig } from "./target.ts";

export type ConnectProblem = "unreachable" | "refused" | "authentication" | "unknown-database" | "tls" | "other";

const PROBLEM_WORDS: Record<ConnectProblem, string> = {
  unreachable: "server unreachable",
  refused: "connection refused",
  authentication: "authentication failed",
  "unknown-database": "unknown database",
  tls: "TLS failed",
  other: "connection failed",
};

/** A connection that could not be opened. `detail` is the driver's or server's own message. */
export function connectFailure(config: ConnectionConfig, problem: ConnectProblem, detail: string, cause?: unknown): DomainError {
  const message = `cannot connect to ${config.host}:${config.port}: ${PROBLEM_WORDS[problem]} (${scrub(detail, config.password)})`;
  return failedPrecondition(message, { details: { host: config.host, port: config.port, problem }, cause: scrubCause(cause, config) });
}

/** A query the platform itself sent (catalog reads, EXPLAIN plumbing) failed on an open connection. */
export function queryFailure(config: ConnectionConfig, database: string, error: unknown): DomainError {
  if (error instanceof DomainError) return error;
  const where = database ? `${config.host}:${config.port}, database "${database}"` : `${config.host}:${config.port}`;
  return failedPrecondition(`query on ${where} failed: ${scrub(errorMessage(error), config.password)}`, {
    details: { host: config.host, port: config.port },
    cause: scrubCause(error, config),
  });
}

export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** The password never appears in what we say, even if a driver echoed it. */
function scrub(text: string, password: string): string {
  return password.length >= 3 ? text.split(password).join("***") : text;
}

/** Keeps the cause for logs only when its message cannot carry the password. */
function scrubCause(cause: unknown, config: ConnectionConfig): unknown {
  if (cause === undefined) return undefined;
  return config.password && errorMessage(cause).includes(config.password) ? undefined : cause;
}
