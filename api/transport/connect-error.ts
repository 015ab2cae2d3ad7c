// Turns anything a handler throws into the ConnectError clients see (contract §1).
import { fromJson, type JsonObject } from "@bufbuild/protobuf";
import { StructSchema } from "@bufbuild/protobuf/wkt";
import { Code, ConnectError } from "@connectrpc/connect";
import { DomainError, type ErrorCode } from "../../shared/platform/index.ts";

const CODES: Record<ErrorCode, Code> = {
  canceled: Code.Canceled,
  unknown: Code.Unknown,
  invalid_argument: Code.InvalidArgument,
  deadline_exceeded: Code.DeadlineExceeded,
  not_found: Code.NotFound,
  already_exists: Code.AlreadyExists,
  permission_denied: Code.PermissionDenied,
  resource_exhausted: Code.ResourceExhausted,
  failed_precondition: Code.FailedPrecondition,
  aborted: Code.Aborted,
  out_of_range: Code.OutOfRange,
  unimplemented: Code.Unimplemented,
  internal: Code.Internal,
  unavailable: Code.Unavailable,
  data_loss: Code.DataLoss,
  unauthenticated: Code.Unauthenticated,
};

// Connection-level failures of the metadata store (pg / slonik / Node).
const STORE_UNAVAILABLE = new Set(["ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "EPIPE", "57P01", "57P03", "08006", "08001"]);

export interface MappedError {
  error: ConnectError;
  /** True when the cause is unexpected and must be logged with its stack. */
  unexpected: boolean;
}

export function toConnectError(thrown: unknown, correlationId: string): MappedError {
  if (thrown instanceof ConnectError) return { error: thrown, unexpected: false };
  if (thrown instanceof DomainError) return { error: fromDomainError(thrown), unexpected: false };
  if (isStoreUnavailable(thrown)) {
    return { error: new ConnectError("the metadata store is unavailable; retry later", Code.Unavailable), unexpected: true };
  }
  const message = `internal error; quote correlation id ${correlationId} to the operator`;
  return { error: new ConnectError(message, Code.Internal, undefined, undefined, thrown), unexpected: true };
}

function fromDomainError(error: DomainError): ConnectError {
  const details = error.details ? [{ desc: StructSchema, value: fromJson(StructSchema, error.details as JsonObject) }] : [];
  return new ConnectError(error.message, CODES[error.code], error.headers, details, error);
}

function isStoreUnavailable(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown; name?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (typeof e.code === "string" && STORE_UNAVAILABLE.has(e.code)) return true;
    if (e.name === "ConnectionError") return true;
  }
  return false;
}
