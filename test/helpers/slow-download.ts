// A REST download read the way a slow client reads it — a pause after each
// piece, so the server meets backpressure — over a bare TCP socket: what the
// server sent before cutting the connection stays in the kernel until it is
// read, so every byte the server sent is counted (an HTTP library drops what
// it had buffered when the connection breaks), and the chunked body shows
// whether it ended with its terminating chunk.
import { connect } from "node:net";

export interface SlowDownload {
  status: number;
  bytes: Buffer;
  /** The body ended with its terminating chunk; false when the connection was cut. */
  complete: boolean;
}

export function downloadSlowly(baseUrl: string, path: string, token: string, body: unknown): Promise<SlowDownload> {
  const url = new URL(baseUrl);
  const payload = Buffer.from(JSON.stringify(body));
  const head = [`POST ${path} HTTP/1.1`, `host: ${url.host}`, "content-type: application/json", `content-length: ${payload.length}`, `authorization: Bearer ${token}`, "connection: close"];
  return new Promise((resolve, reject) => {
    const socket = connect(Number(url.port), url.hostname);
    const received: Buffer[] = [];
    socket.on("data", (piece: Buffer) => {
      received.push(piece);
      socket.pause();
      setTimeout(() => socket.resume(), 2);
    });
    socket.on("error", reject); // a reset: the server dropped bytes it had sent
    socket.on("end", () => resolve(parseResponse(Buffer.concat(received))));
    socket.write(`${head.join("\r\n")}\r\n\r\n`);
    socket.write(payload);
  });
}

function parseResponse(raw: Buffer): SlowDownload {
  const split = raw.indexOf("\r\n\r\n");
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(raw.subarray(0, split).toString())?.[1] ?? 0);
  const chunked = /\r\ntransfer-encoding: chunked\r\n/i.test(raw.subarray(0, split + 2).toString());
  const rest = raw.subarray(split + 4);
  return chunked ? { status, ...dechunked(rest) } : { status, bytes: rest, complete: true };
}

/** The chunks' bytes, a cut-off last one included. */
function dechunked(body: Buffer): { bytes: Buffer; complete: boolean } {
  const parts: Buffer[] = [];
  for (let at = 0; at < body.length; ) {
    const lineEnd = body.indexOf("\r\n", at);
    if (lineEnd < 0) break;
    const size = parseInt(body.subarray(at, lineEnd).toString(), 16);
    if (size === 0) return { bytes: Buffer.concat(parts), complete: true };
    parts.push(body.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
  return { bytes: Buffer.concat(parts), complete: false };
}
