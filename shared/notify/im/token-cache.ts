// Access tokens of the IM vendors (Feishu/Lark tenant tokens, WeCom, DingTalk
// and Teams tokens), kept per process until shortly before they expire, so
// that two messages cost one token call. Callers fetching the same token at
// once share one request; a failed fetch is not kept; a token the vendor
// rejects is forgotten so the next attempt fetches a new one. Keys are
// hashes: the cache holds no credential but the tokens themselves.
import { createHash } from "node:crypto";

export interface FetchedToken {
  token: string;
  /** The vendor's expires_in, in seconds. */
  expiresInS: number;
}

interface Held {
  token: Promise<string>;
  /** Epoch ms after which it is fetched again; Infinity while being fetched. */
  expiresAt: number;
}

const held = new Map<string, Held>();

/** A cache key from the vendor, its API root and the credentials the token is for. */
export function tokenKey(...parts: string[]): string {
  return createHash("sha256").update(parts.join("\0")).digest("hex");
}

export function cachedToken(key: string, fetch: () => Promise<FetchedToken>): Promise<string> {
  const current = held.get(key);
  if (current && Date.now() < current.expiresAt) return current.token;
  const entry: Held = { token: Promise.resolve(""), expiresAt: Infinity };
  entry.token = fetch().then(
    ({ token, expiresInS }) => {
      if (!token) throw new Error("the vendor answered without an access token");
      entry.expiresAt = Date.now() + lifetimeMs(expiresInS);
      return token;
    },
    (error: unknown) => {
      if (held.get(key) === entry) held.delete(key);
      throw error;
    },
  );
  held.set(key, entry);
  return entry.token;
}

export function forgetToken(key: string): void {
  held.delete(key);
}

/** The token's life less a margin (a tenth, at most a minute) so that it is not used as it expires. */
function lifetimeMs(expiresInS: number): number {
  const ms = Math.max(0, expiresInS) * 1000;
  return ms - Math.min(60_000, ms / 10);
}
