// The in-process RPC paths write their answer to the raw response, past
// Fastify's send, as connect-fastify does: the headers hooks set on the reply
// (the correlation id), then the answer's own. A string body goes out with
// the headers in one write (a buffer takes a writev of two).
import type { FastifyReply } from "fastify";

export function writeRaw(reply: FastifyReply, status: number, header: Headers, body: Uint8Array | string | undefined, trailer?: Headers): Promise<void> {
  reply.hijack();
  const res = reply.raw;
  for (const [key, value] of Object.entries(reply.getHeaders())) if (value !== undefined) res.setHeader(key, value);
  res.writeHead(status, nodeHeaders(header));
  if (trailer) {
    if (body !== undefined) res.write(body);
    res.addTrailers(nodeHeaders(trailer));
    body = undefined;
  }
  // Settled when the answer is out or the client is gone: a response emits
  // close either way, where `end`'s callback waits for a finish a destroyed
  // one never emits.
  if (res.destroyed) return Promise.resolve();
  const closed = new Promise<void>((resolve) => res.once("close", resolve));
  res.end(body);
  return closed;
}

function nodeHeaders(headers: Headers): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  headers.forEach((value, key) => {
    out[key] = key === "set-cookie" ? headers.getSetCookie() : value;
  });
  return out;
}
