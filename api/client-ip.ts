// The client address of contract §4.6: the direct peer, unless it is a trusted
// proxy; then the right-most untrusted X-Forwarded-For address (Fastify's
// trustProxy walks the list), else X-Real-IP.
import { isIP, type BlockList } from "node:net";
import type { FastifyInstance, FastifyRequest } from "fastify";

/** The direct peer of a connection, and whether it is a trusted proxy. */
interface Peer {
  address: string;
  trusted: boolean;
}

export function registerClientIp(app: FastifyInstance, trusted: BlockList): void {
  // A connection's peer never changes: it is checked against the trusted list
  // once per connection (an HTTP/1.1 socket, an HTTP/2 session), not per request.
  const peers = new WeakMap<object, Peer>();
  app.decorateRequest("clientIp", "");
  app.addHook("onRequest", (req, _reply, done) => {
    const connection = connectionOf(req);
    let peer = peers.get(connection);
    if (!peer) {
      const address = req.socket.remoteAddress;
      peer = peerOf(address ?? "", trusted);
      if (address !== undefined) peers.set(connection, peer);
    }
    req.clientIp = clientIpFrom(peer, () => req.ip, req.headers);
    done();
  });
}

export function clientIpOf(
  peer: string,
  forwardedIp: string,
  headers: Record<string, string | string[] | undefined>,
  trusted: BlockList,
): string {
  return clientIpFrom(peerOf(peer, trusted), () => forwardedIp, headers);
}

/** forwardedIp: Fastify's walk of X-Forwarded-For, taken only when a trusted proxy sent one. */
function clientIpFrom(peer: Peer, forwardedIp: () => string, headers: Record<string, string | string[] | undefined>): string {
  if (!peer.trusted) return peer.address;
  if (headers["x-forwarded-for"]) return unmapped(forwardedIp());
  const realIp = headers["x-real-ip"];
  return typeof realIp === "string" && isIP(realIp.trim()) ? realIp.trim() : peer.address;
}

function peerOf(peer: string, trusted: BlockList): Peer {
  const address = unmapped(peer);
  return { address, trusted: isTrusted(address, trusted) };
}

/** An HTTP/2 request's socket is a proxy made per stream; its session is the connection. */
function connectionOf(req: FastifyRequest): object {
  return (req.raw as { stream?: { session?: object } }).stream?.session ?? req.socket;
}

function isTrusted(address: string, trusted: BlockList): boolean {
  const family = isIP(address);
  return family !== 0 && trusted.check(address, family === 6 ? "ipv6" : "ipv4");
}

/** "::ffff:10.0.0.1" → "10.0.0.1" */
function unmapped(address: string): string {
  return address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}
