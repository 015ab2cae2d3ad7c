// A request message in the protobuf binary format, parsed for any form that
// carries one (the Connect fast path, and connect-fastify's guard). Bytes
// that are not a message of the method's input type are the client's fault:
// invalid_argument, where connect itself says internal.
import { fromBinary, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type { MethodSerializationLookup } from "@connectrpc/connect/protocol";

export function parseBinaryRequest<Desc extends DescMessage>(desc: Desc, bytes: Uint8Array): MessageShape<Desc> {
  try {
    return fromBinary(desc, bytes);
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new ConnectError(`the request is not a valid binary ${desc.typeName}: ${reason}`, Code.InvalidArgument);
  }
}

/** connect's serialization of a method, with binary requests parsed by parseBinaryRequest. */
export function withBinaryRequestParse<I extends DescMessage, O extends DescMessage>(
  input: I,
  lookup: MethodSerializationLookup<I, O>,
): MethodSerializationLookup<I, O> {
  const binary = { serialize: lookup.getI(true).serialize, parse: (bytes: Uint8Array) => parseBinaryRequest(input, bytes) };
  return { getI: (useBinary) => (useBinary ? binary : lookup.getI(false)), getO: (useBinary) => lookup.getO(useBinary) };
}
