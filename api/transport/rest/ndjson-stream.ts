// REST server streams that are not downloads (WatchRollout, WatchIssue;
// contract §12.3, §18.11): newline-delimited JSON (application/x-ndjson).
// Each message is a line {"result": …} (its response_body field when the
// binding names one); a message that carries nothing there is a heartbeat,
// an empty line. As for downloads, the reply waits for the first message,
// so a failure before it is the usual JSON error reply with its status; a
// failure after it is a last line {"error": {code, message, details}} (the
// error shape of contract §1.1), and the body ends normally.
import { Readable } from "node:stream";
import type { Message } from "@bufbuild/protobuf";
import type { StreamResponse } from "@connectrpc/connect";
import { errorToJson } from "@connectrpc/connect/protocol-connect";
import type { FastifyReply } from "fastify";
import { toConnectError } from "../connect-error.ts";
import { responseJson, type RestBinding } from "./bindings.ts";

export const NDJSON_CONTENT_TYPE = "application/x-ndjson";

export interface NdjsonStream {
  header: Headers;
  body: Readable;
}

/** Waits for the first message, so that an early failure can still be a JSON error. */
export async function startNdjson(binding: RestBinding, res: StreamResponse, correlationId: string): Promise<NdjsonStream> {
  const messages = res.message[Symbol.asyncIterator]() as AsyncIterator<Message>;
  const first = await messages.next();
  const body = Readable.from(lines(binding, first, messages, correlationId), { objectMode: false });
  // As for downloads: a body destroyed before its first read still ends the call.
  body.once("close", () => void messages.return?.().catch(() => undefined));
  return { header: res.header, body };
}

export function sendNdjson(reply: FastifyReply, stream: NdjsonStream): FastifyReply {
  stream.header.forEach((value, key) => reply.header(key, value));
  reply.header("content-type", NDJSON_CONTENT_TYPE);
  reply.header("cache-control", "no-store");
  // nginx would otherwise buffer the lines until the stream ends.
  reply.header("x-accel-buffering", "no");
  return reply.send(stream.body);
}

async function* lines(binding: RestBinding, first: IteratorResult<Message>, rest: AsyncIterator<Message>, correlationId: string): AsyncGenerator<string> {
  if (first.done) return;
  yield line(binding, first.value);
  try {
    for await (const message of { [Symbol.asyncIterator]: () => rest }) yield line(binding, message);
  } catch (thrown) {
    // Already a ConnectError (the errors interceptor mapped it); mapped again only as a safeguard.
    yield `${JSON.stringify({ error: errorToJson(toConnectError(thrown, correlationId).error, undefined) })}\n`;
  }
}

function line(binding: RestBinding, message: Message): string {
  const result = responseJson(binding, message);
  const empty = result === null || (typeof result === "object" && !Array.isArray(result) && Object.keys(result).length === 0);
  return empty ? "\n" : `${JSON.stringify({ result })}\n`;
}
