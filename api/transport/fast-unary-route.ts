// What the in-process unary paths (Connect and gRPC) know of each method,
// built once at start-up.
import type { DescMethodUnary } from "@bufbuild/protobuf";
import type { Compression, MethodSerializationLookup } from "@connectrpc/connect/protocol";
import type { UnaryInvoker } from "./invoke-unary.ts";

export interface FastUnaryOptions {
  invoke: UnaryInvoker;
  readMaxBytes: number;
  compressMinBytes: number;
  acceptCompression: Compression[];
}

export interface UnaryRoute {
  method: DescMethodUnary;
  serialization: MethodSerializationLookup<DescMethodUnary["input"], DescMethodUnary["output"]>;
}

/** No server-side cap on client deadlines (connect's own default). */
export const MAX_TIMEOUT_MS = Number.MAX_SAFE_INTEGER;
