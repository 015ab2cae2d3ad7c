// A request to an audited method that cannot be decoded (a lone surrogate or
// a malformed value in its JSON) is a refused call, and is recorded as one
// (contract §8.2; decision 0072). The in-process paths (REST and the Connect
// unary fast path) hand the chain an empty request that carries the refusal:
// the caller is authenticated as for any call, and the audit interceptor
// records the refusal, without a request, before it throws it.
import { create, type DescMethod, type Message } from "@bufbuild/protobuf";
import { type ContextValues, createContextKey } from "@connectrpc/connect";
import { methodOptions } from "../method-options.ts";

const kUndecodable = createContextKey<{ error: unknown } | undefined>(undefined, { description: "why the request could not be decoded" });

/** The decoded request; for an audited method whose request cannot be decoded, an empty one carrying the refusal. */
export function decodedRequest(method: DescMethod, contextValues: ContextValues, decode: () => Message): Message {
  try {
    return decode();
  } catch (error) {
    if (!methodOptions(method).auditAction) throw error;
    contextValues.set(kUndecodable, { error });
    return create(method.input);
  }
}

/** Why the call's request could not be decoded, when it could not. */
export function undecodableRefusal(contextValues: ContextValues): { error: unknown } | undefined {
  return contextValues.get(kUndecodable);
}
