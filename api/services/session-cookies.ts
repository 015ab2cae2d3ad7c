// Session cookies for browser sign-in (contract §4.2): HttpOnly,
// SameSite=Strict, Path=/, Secure when the client came over HTTPS or the
// workspace is served from an https external URL.
import type { HandlerContext } from "@connectrpc/connect";
import type { IssuedSession } from "../../shared/identity/index.ts";
import { requestFacts } from "../transport/context.ts";
import { ACCESS_COOKIE, REFRESH_COOKIE } from "../transport/cookies.ts";

export function setSessionCookies(context: HandlerContext, session: IssuedSession, externalUrl: string): void {
  const secure = isSecure(context, externalUrl);
  const now = Date.now();
  context.responseHeader.append("set-cookie", cookie(ACCESS_COOKIE, session.accessToken, session.accessExpireTime.getTime() - now, secure));
  context.responseHeader.append("set-cookie", cookie(REFRESH_COOKIE, session.refreshToken, session.refreshExpireTime.getTime() - now, secure));
}

export function clearSessionCookies(context: HandlerContext, externalUrl: string): void {
  const secure = isSecure(context, externalUrl);
  context.responseHeader.append("set-cookie", cookie(ACCESS_COOKIE, "", 0, secure));
  context.responseHeader.append("set-cookie", cookie(REFRESH_COOKIE, "", 0, secure));
}

function cookie(name: string, value: string, maxAgeMs: number, secure: boolean): string {
  const maxAge = Math.max(0, Math.floor(maxAgeMs / 1000));
  return `${name}=${value}; Max-Age=${maxAge}; Path=/; HttpOnly; SameSite=Strict${secure ? "; Secure" : ""}`;
}

function isSecure(context: HandlerContext, externalUrl: string): boolean {
  return requestFacts(context.values).https || externalUrl.startsWith("https://");
}
