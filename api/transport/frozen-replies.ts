// A handler that answers the same message call after call (GetActuatorInfo
// between changes) freezes it; the transports then encode a frozen message
// once per form (REST JSON, Connect JSON, binary) and write the kept bytes
// again. A message that is not frozen is encoded each time, as it may change.
import type { Message } from "@bufbuild/protobuf";
import type { UnaryRoute } from "./fast-unary-route.ts";

const encodings = new WeakMap<Message, Map<object, unknown>>();

/** The message's encoding in `form` (any object naming it), made once when the message is frozen. */
export function encodedOnce<T>(message: Message, form: object, encode: () => T): T {
  if (!Object.isFrozen(message)) return encode();
  let forms = encodings.get(message);
  if (!forms) encodings.set(message, (forms = new Map()));
  if (forms.has(form)) return forms.get(form) as T;
  const encoded = encode();
  forms.set(form, encoded);
  return encoded;
}

/** The response of a fast-path route in the binary format (Connect, gRPC). */
export function binaryOnce(route: UnaryRoute, message: Message): Uint8Array {
  return encodedOnce(message, route.serialization, () => route.serialization.getO(true).serialize(message));
}

/** Freezes a message and every message and list inside it (bytes fields excepted: typed arrays cannot be frozen). */
export function freezeMessage<T extends Message>(message: T): T {
  deepFreeze(message);
  return message;
}

function deepFreeze(value: object): void {
  if (ArrayBuffer.isView(value) || Object.isFrozen(value)) return;
  for (const inner of Object.values(value)) if (typeof inner === "object" && inner !== null) deepFreeze(inner as object);
  Object.freeze(value);
}
