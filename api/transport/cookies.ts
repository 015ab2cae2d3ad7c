// The session cookies' names (contract §4.2) and reading a cookie header.
export const ACCESS_COOKIE = "access-token";
export const REFRESH_COOKIE = "refresh-token";

/** The value of one cookie in a Cookie header, or undefined. */
export function cookieValue(header: string | null, name: string): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim()) || undefined;
  }
  return undefined;
}
