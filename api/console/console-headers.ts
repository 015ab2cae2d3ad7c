// Security headers (decision 0091). Every response says nosniff and may not
// be framed; the console's own files also carry its Content-Security-Policy:
// scripts and styles only from this origin (no inline script, no eval), data:
// images for the MFA QR code, calls only to this origin, never framed.
import type { FastifyReply } from "fastify";

export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join("; ");

/** On every response, API and console alike. */
export function setBaseSecurityHeaders(reply: FastifyReply): void {
  reply.header("x-content-type-options", "nosniff");
  reply.header("x-frame-options", "DENY");
}

/** On the console's files, its index.html and the page saying it is not built. */
export function setConsoleHeaders(reply: FastifyReply): void {
  reply.header("content-security-policy", CONTENT_SECURITY_POLICY);
  // The password-reset link carries its token in the query: no Referer ever repeats it.
  reply.header("referrer-policy", "no-referrer");
  reply.header("cross-origin-opener-policy", "same-origin");
  reply.header("cross-origin-resource-policy", "same-origin");
}
