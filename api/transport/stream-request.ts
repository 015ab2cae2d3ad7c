// The one request message of a server-streaming call, read ahead by an
// interceptor that needs it (the resource to check, the request to record);
// the call it returns replays the message to the next step unchanged.
import type { DescMethod, Message } from "@bufbuild/protobuf";
import type { StreamRequest } from "@connectrpc/connect";
import { isServerStreaming } from "./services.ts";

export interface ReadAhead {
  /** Undefined when the client sent no message (the handler reports that). */
  message: Message | undefined;
  req: StreamRequest;
}

export async function readServerStreamRequest(req: StreamRequest): Promise<ReadAhead> {
  const iterator = req.message[Symbol.asyncIterator]();
  const first = await iterator.next();
  async function* replay() {
    if (first.done) return;
    yield first.value;
    for (let next = await iterator.next(); !next.done; next = await iterator.next()) yield next.value;
  }
  return { message: first.done ? undefined : first.value, req: { ...req, message: replay() } };
}

export function isServerStream(req: { stream: boolean; method: DescMethod }): req is StreamRequest {
  return req.stream && isServerStreaming(req.method);
}
