// The client address of contract §4.6: the direct peer, unless it is a trusted
// proxy; then the right-most untrusted X-Forwarded-For address (Fastify's
// trustProxy walks the list), else X-Real-IP.
import { isIP, type BlockList } from "node:net";
import type { FastifyInstance } from "fastify";

export function registerClientIp(app: FastifyInstance, trusted: BlockList): void {
  app.decorateRequest("clientIp", "");
  app.addHook("onRequest", async (req) => {
    req.clientIp = clientIpOf(req.socket.remoteAddress ?? "", req.ip, req.headers, trusted);
  });
}

export function clientIpOf(
  peer: string,
  forwardedIp: string,
  headers: Record<string, string | string[] | undefined>,
  trusted: BlockList,
): string {
  const peerAddress = unmapped(peer);
  if (!isTrusted(peerAddress, trusted)) return peerAddress;
  if (headers["x-forwarded-for"]) return unmapped(forwardedIp);
  const realIp = headers["x-real-ip"];
  return typeof realIp === "string" && isIP(realIp.trim()) ? realIp.trim() : peerAddress;
}

function isTrusted(address: string, trusted: BlockList): boolean {
  const family = isIP(address);
  return family !== 0 && trusted.check(address, family === 6 ? "ipv6" : "ipv4");
}

/** "::ffff:10.0.0.1" → "10.0.0.1" */
function unmapped(address: string): string {
  return address.startsWith("::ffff:") && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
}
