// REST downloads (docs/decisions/0009-streamed-downloads.md): a
// server-streaming method with a google.api.http binding is a download. Its
// response messages carry `bytes content` and, on the first message,
// `string content_type` and `string filename`. Over REST the response body is
// the concatenated content, streamed with backpressure; the first message sets
// Content-Type and Content-Disposition. An error before the first message is
// the usual JSON error reply; an error after it aborts the connection, so the
// client never takes a cut-off file for a whole one — once every byte sent
// before the error has left the server, so that the client receives all that
// was sent (an export ends its file before it fails: a whole file).
import { Readable } from "node:stream";
import { setTimeout as sleep } from "node:timers/promises";
import { ScalarType, type DescMethodServerStreaming, type Message } from "@bufbuild/protobuf";
import type { StreamResponse } from "@connectrpc/connect";
import type { FastifyReply } from "fastify";

interface DownloadMessage {
  content: Uint8Array;
  contentType?: string;
  filename?: string;
}

const FIELDS = [
  { name: "content", scalar: ScalarType.BYTES, required: true },
  { name: "content_type", scalar: ScalarType.STRING, required: false },
  { name: "filename", scalar: ScalarType.STRING, required: false },
];

/** Start-up check of the message convention; a mismatch is a definition error. */
export function checkDownload(method: DescMethodServerStreaming): void {
  for (const expected of FIELDS) {
    const field = method.output.fields.find((f) => f.name === expected.name);
    const fits = field ? field.fieldKind === "scalar" && field.scalar === expected.scalar : !expected.required;
    if (!fits) {
      throw new Error(
        `${method.parent.typeName}.${method.name} is a REST download: its response ${method.output.typeName} needs ` +
          `"bytes content" and may have "string content_type" and "string filename"`,
      );
    }
  }
}

export interface Download {
  header: Headers;
  contentType: string;
  filename: string;
  body: Readable;
}

/** Where the body is written (the raw response): a failure waits until it has sent what it holds. */
export interface DownloadSink {
  readonly writableLength: number;
  readonly destroyed: boolean;
}

/** How long a failing download waits for its last bytes to leave before the connection is cut anyway. */
const SEND_WAIT_MS = 30_000;
const SEND_POLL_MS = 5;

/** Waits for the first message, so that an early failure can still be a JSON error. */
export async function startDownload(res: StreamResponse, sink?: DownloadSink): Promise<Download> {
  const messages = res.message[Symbol.asyncIterator]() as AsyncIterator<Message & DownloadMessage>;
  const first = await messages.next();
  const head = first.done ? undefined : first.value;
  const unsent = () => !sink?.destroyed && body.readableLength + (sink?.writableLength ?? 0) > 0;
  const body: Readable = Readable.from(contents(head, messages, unsent), { objectMode: false });
  // A body destroyed before its first read never starts `contents`, whose loop
  // would close the upstream: close it here, so the call still ends (and its
  // audit record is written). After a normal end this is a no-op; the audit
  // hook logs its own failures, and the client is gone, so a failed close has
  // no one else to go to.
  body.once("close", () => void messages.return?.().catch(() => undefined));
  return {
    header: res.header,
    contentType: head?.contentType || "application/octet-stream",
    filename: head?.filename ?? "",
    body,
  };
}

export function sendDownload(reply: FastifyReply, download: Download): FastifyReply {
  download.header.forEach((value, key) => reply.header(key, value));
  reply.header("content-type", download.contentType);
  if (download.filename) reply.header("content-disposition", `attachment; filename="${safeFilename(download.filename)}"`);
  return reply.send(download.body);
}

/**
 * The file's bytes; closing it early (the client left) closes the response
 * stream too. A failure is held until the bytes before it have left (`unsent`
 * false): the body's buffer and the response's would be dropped by the abort.
 */
async function* contents(head: DownloadMessage | undefined, rest: AsyncIterator<DownloadMessage>, unsent: () => boolean): AsyncGenerator<Buffer> {
  if (head === undefined) return;
  try {
    if (head.content.byteLength > 0) yield bufferOf(head.content);
    for await (const message of { [Symbol.asyncIterator]: () => rest }) {
      if (message.content.byteLength > 0) yield bufferOf(message.content);
    }
  } catch (error) {
    for (const giveUp = performance.now() + SEND_WAIT_MS; unsent() && performance.now() < giveUp; ) await sleep(SEND_POLL_MS);
    throw error;
  }
}

function bufferOf(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** A file name that is safe inside a quoted header parameter. */
function safeFilename(name: string): string {
  return name.replace(/[^A-Za-z0-9._-]/g, "_");
}
