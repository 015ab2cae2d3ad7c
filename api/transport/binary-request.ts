// A request message in the protobuf binary format, parsed for any form that
// carries one (the Connect fast path, and connect-fastify's guard). Bytes
// that are not a message of the method's input type are the client's fault:
// invalid_argument, where connect itself says internal. So are values the
// JSON form cannot carry (a timestamp outside years 1 to 9999, a NaN in a
// Struct, an irreversible field mask path), which the JSON form refuses as it
// parses and which the audit record, written as JSON, could not hold.
import { fromBinary, toJson, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import type { MethodSerializationLookup } from "@connectrpc/connect/protocol";

export function parseBinaryRequest<Desc extends DescMessage>(desc: Desc, bytes: Uint8Array): MessageShape<Desc> {
  try {
    const message = fromBinary(desc, bytes);
    toJson(desc, message);
    return message;
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
