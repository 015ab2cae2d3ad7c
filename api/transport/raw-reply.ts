// The in-process RPC paths write their answer to the raw response, past
// Fastify's send, as connect-fastify does: the headers hooks set on the reply
// (the correlation id), then the answer's own, which win over a hook's of
// the same name. They go to Node as one flat list, which skips the
// per-header bookkeeping of setHeader. A string body goes out with the
// headers in one write (a buffer takes a writev of two).
import type { FastifyReply } from "fastify";

export function writeRaw(reply: FastifyReply, status: number, header: Headers, body: Uint8Array | string | undefined, trailer?: Headers): Promise<void> {
  reply.hijack();
  const res = reply.raw;
  res.writeHead(status, rawHeaders(reply.getHeaders(), header));
  if (trailer) {
    if (body !== undefined) res.write(body);
    res.addTrailers(headerRecord(trailer));
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

/** Trailers as a record: HTTP/2's addTrailers takes no list. */
function headerRecord(header: Headers): Record<string, string> {
  const record: Record<string, string> = {};
  header.forEach((value, name) => (record[name] = value));
  return record;
}

/** [name, value, name, value, …]: each Set-Cookie its own pair. */
function rawHeaders(fromHooks: Record<string, number | string | string[] | undefined>, header: Headers): string[] {
  const raw: string[] = [];
  for (const name in fromHooks) {
    const value = fromHooks[name];
    if (value === undefined || header.has(name)) continue;
    if (Array.isArray(value)) for (const item of value) raw.push(name, item);
    else raw.push(name, String(value));
  }
  header.forEach((value, name) => {
    if (name !== "set-cookie") raw.push(name, value);
  });
  for (const cookie of header.getSetCookie()) raw.push("set-cookie", cookie);
  return raw;
}
