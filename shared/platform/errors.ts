// Domain errors. Shared code throws these; only the API transport maps them to
// Connect codes and HTTP statuses (contract §1).

export type ErrorCode =
  | "canceled"
  | "unknown"
  | "invalid_argument"
  | "deadline_exceeded"
  | "not_found"
  | "already_exists"
  | "permission_denied"
  | "resource_exhausted"
  | "failed_precondition"
  | "aborted"
  | "out_of_range"
  | "unimplemented"
  | "internal"
  | "unavailable"
  | "data_loss"
  | "unauthenticated";

export interface DomainErrorOptions {
  /** Structured facts for clients (e.g. {lockedUntil}); sent as an error detail. */
  details?: Record<string, unknown>;
  /** Response headers the transport adds (e.g. Retry-After). */
  headers?: Record<string, string>;
  cause?: unknown;
}

export class DomainError extends Error {
  override name = "DomainError";
  readonly code: ErrorCode;
  readonly details: Record<string, unknown> | undefined;
  readonly headers: Record<string, string> | undefined;

  constructor(code: ErrorCode, message: string, options: DomainErrorOptions = {}) {
    super(message, { cause: options.cause });
    this.code = code;
    this.details = options.details;
    this.headers = options.headers;
  }
}

const factory =
  (code: ErrorCode) =>
  (message: string, options?: DomainErrorOptions): DomainError =>
    new DomainError(code, message, options);

export const invalidArgument = factory("invalid_argument");
export const notFound = factory("not_found");
export const alreadyExists = factory("already_exists");
export const permissionDenied = factory("permission_denied");
export const unauthenticated = factory("unauthenticated");
export const failedPrecondition = factory("failed_precondition");
export const aborted = factory("aborted");
export const resourceExhausted = factory("resource_exhausted");
export const unavailable = factory("unavailable");
export const internal = factory("internal");
export const unimplemented = factory("unimplemented");
export const deadlineExceeded = factory("deadline_exceeded");
export const canceled = factory("canceled");

/** How many characters of a client's value an error message quotes. */
export const QUOTED_PREFIX = 64;

/**
 * A value the client sent, as an error message quotes it: in double quotes
 * with control characters escaped (a NUL shows as \u0000), and cut to a short
 * prefix with its length when longer, so a message never echoes a huge value.
 */
export function quoted(value: string): string {
  if (value.length <= QUOTED_PREFIX) return JSON.stringify(value);
  return `${JSON.stringify(value.slice(0, QUOTED_PREFIX)).slice(0, -1)}…" (${value.length} characters)`;
}
