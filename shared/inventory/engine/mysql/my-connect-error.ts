// Names what went wrong when a MySQL/MariaDB connection could not be opened
// (refused, unreachable, authentication, unknown database, TLS).
import type { DomainError } from "../../../platform/index.ts";
import { connectFailure, errorMessage, type ConnectProblem } from "../connect-failure.ts";
import type { ConnectionConfig } from "../target.ts";

const UNREACHABLE_CODES = new Set(["ENOTFOUND", "EAI_AGAIN", "EHOSTUNREACH", "ENETUNREACH", "ETIMEDOUT", "EHOSTDOWN"]);
const AUTHENTICATION_CODES = new Set([
  "ER_ACCESS_DENIED_ERROR",
  "ER_DBACCESS_DENIED_ERROR",
  "ER_ACCESS_DENIED_NO_PASSWORD_ERROR",
  "ER_NOT_SUPPORTED_AUTH_MODE",
  "ER_HOST_NOT_PRIVILEGED",
]);
const TLS_CODES = new Set(["HANDSHAKE_NO_SSL_SUPPORT", "ER_SECURE_TRANSPORT_REQUIRED"]);

export function myConnectFailure(config: ConnectionConfig, error: unknown, timeoutMs: number): DomainError {
  const raw = (error as { code?: unknown } | undefined)?.code;
  const code = typeof raw === "string" ? raw : undefined;
  const problem = problemOf(code, errorMessage(error));
  const detail = code === "ETIMEDOUT" ? `no answer within ${timeoutMs} ms` : errorMessage(error);
  return connectFailure(config, problem, detail, error);
}

function problemOf(code: string | undefined, message: string): ConnectProblem {
  if (code === "ECONNREFUSED") return "refused";
  if (code && UNREACHABLE_CODES.has(code)) return "unreachable";
  if (code && AUTHENTICATION_CODES.has(code)) return "authentication";
  if (code === "ER_BAD_DB_ERROR") return "unknown-database";
  if ((code && (TLS_CODES.has(code) || /CERT|^ERR_TLS|^ERR_SSL|SELF_SIGNED|UNABLE_TO_VERIFY/.test(code))) || /\bSSL\b|\bTLS\b|certificate/i.test(message)) {
    return "tls";
  }
  return "other";
}
