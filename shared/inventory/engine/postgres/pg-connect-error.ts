// Names what went wrong when a PostgreSQL connection could not be opened
// (refused, unreachable, authentication, unknown database, TLS).
import type { DomainError } from "../../../platform/index.ts";
import { connectFailure, errorMessage, type ConnectProblem } from "../connect-failure.ts";
import type { ConnectionConfig } from "../target.ts";

const UNREACHABLE_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ETIMEDOUT", "EHOSTDOWN"]);
// SQLSTATE class 28: invalid authorization (wrong password, unknown role, no pg_hba.conf entry).
const AUTHENTICATION_STATES = new Set(["28000", "28P01"]);
const UNKNOWN_DATABASE_STATE = "3D000";

export function pgConnectFailure(config: ConnectionConfig, error: unknown, timeoutMs: number): DomainError {
  const raw = (error as { code?: unknown } | undefined)?.code;
  const code = typeof raw === "string" ? raw : undefined;
  const message = errorMessage(error);
  const detail = isTimeout(message) ? `no answer within ${timeoutMs} ms` : message;
  return connectFailure(config, problemOf(message, code), detail, error);
}

function problemOf(message: string, code: string | undefined): ConnectProblem {
  if (code === "ECONNREFUSED") return "refused";
  if ((code && UNREACHABLE_CODES.has(code)) || isTimeout(message)) return "unreachable";
  if (code && AUTHENTICATION_STATES.has(code)) return "authentication";
  if (code === UNKNOWN_DATABASE_STATE) return "unknown-database";
  if (isTlsError(message, code)) return "tls";
  return "other";
}

function isTimeout(message: string): boolean {
  return /timeout expired|connection timeout/i.test(message);
}

function isTlsError(message: string, code: string | undefined): boolean {
  if (code && /CERT|^ERR_TLS|^ERR_SSL|SELF_SIGNED|UNABLE_TO_VERIFY|UNABLE_TO_GET_ISSUER/.test(code)) return true;
  return /\bSSL\b|\bTLS\b|certificate/i.test(message);
}
