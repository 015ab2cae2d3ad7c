// Paging (contract §2.1): page sizes, and keyset page tokens. A token carries
// the sort key of the last row served and a short hash of the query it belongs
// to, as base64url JSON. It holds nothing secret: a client that edits it only
// moves its own cursor, and a token from another query is refused.
import { createHash } from "node:crypto";
import { invalidArgument } from "../errors.ts";
import { fitsPageKey, isKeyText, type PageKeyShape } from "./page-key.ts";

export interface PageSizeOptions {
  /** Used when the request gives no size or 0; 50 unless the list says otherwise. */
  default?: number;
  /** Larger requests are clamped to this: 1000 unless the list says otherwise (audit logs: 5000). */
  max?: number;
}

/** One value per `order_by` column of the last row served (times as strings or epoch numbers). */
export type PageKey = (string | number)[];

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 1000;
const BASE64URL = /^[A-Za-z0-9_-]+$/;

/** The number of rows to serve for a request's `page_size`. */
export function pageSize(requested: number | bigint | undefined, options: PageSizeOptions = {}): number {
  const max = options.max ?? MAX_PAGE_SIZE;
  const fallback = Math.min(options.default ?? DEFAULT_PAGE_SIZE, max);
  if (requested === undefined || requested === 0 || requested === 0n) return fallback;
  if (typeof requested === "number" && !Number.isInteger(requested)) {
    throw invalidArgument("page_size must be a whole number");
  }
  if (requested < 0) throw invalidArgument("page_size must not be negative");
  return requested > max ? max : Number(requested);
}

/**
 * The `next_page_token` for a page that ended at `key`. `query` is a
 * fingerprint the caller computes from everything that shapes the list
 * (parent, filter, order_by, show_deleted), never from page_size or the token.
 */
export function encodePageToken(query: string, key: readonly (string | number)[]): string {
  return Buffer.from(JSON.stringify({ q: queryHash(query), k: key })).toString("base64url");
}

/**
 * The key a `page_token` continues after; undefined for an empty token (the
 * first page). With the list's key shape, a key of another shape is refused.
 */
export function decodePageToken(token: string, query: string, shape?: PageKeyShape): PageKey | undefined {
  if (token === "") return undefined;
  const payload = readPayload(token);
  if (payload === undefined) throw invalidArgument("page_token is malformed");
  if (payload.q !== queryHash(query)) throw invalidArgument("page_token does not belong to this query");
  if (shape && !fitsPageKey(payload.k, shape)) throw invalidArgument("page_token is malformed");
  return payload.k;
}

function readPayload(token: string): { q: string; k: PageKey } | undefined {
  if (!BASE64URL.test(token)) return undefined;
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(token, "base64url").toString("utf8"));
  } catch {
    return undefined;
  }
  if (typeof payload !== "object" || payload === null) return undefined;
  const { q, k } = payload as { q?: unknown; k?: unknown };
  if (typeof q !== "string" || !Array.isArray(k) || !k.every(isKeyPart)) return undefined;
  return { q, k };
}

function isKeyPart(value: unknown): value is string | number {
  return isKeyText(value) || (typeof value === "number" && Number.isFinite(value));
}

function queryHash(query: string): string {
  return createHash("sha256").update(query).digest("base64url").slice(0, 11);
}

export interface PageRequest {
  pageSize?: number | bigint;
  pageToken: string;
}

export interface Page<Row> {
  rows: Row[];
  nextPageToken: string;
}

/**
 * One page of a keyset-paged list: `fetch` reads up to `limit` rows after the
 * key (undefined = from the start) in the list's order; `keyOf` gives a row's
 * sort key, of the `shape` a token must have. One row beyond the page tells
 * whether another page follows.
 */
export async function keysetPage<Row>(
  request: PageRequest,
  query: string,
  shape: PageKeyShape,
  fetch: (after: PageKey | undefined, limit: number) => Promise<readonly Row[]>,
  keyOf: (row: Row) => PageKey,
  options: PageSizeOptions = {},
): Promise<Page<Row>> {
  const size = pageSize(request.pageSize, options);
  const rows = await fetch(decodePageToken(request.pageToken, query, shape), size + 1);
  const page = rows.slice(0, size);
  const last = page.at(-1);
  return { rows: page, nextPageToken: rows.length > size && last !== undefined ? encodePageToken(query, keyOf(last)) : "" };
}
