// Naming rules of contract §0.3 shared by every layer. Login ids are
// case-insensitive and stored lower-case; `me` is reserved for the caller.
import { invalidArgument, quoted } from "./errors.ts";

const LOGIN_ID = /^[a-zA-Z0-9][a-zA-Z0-9._@+-]{0,127}$/;

/** The stored form of a login id, or undefined when it is malformed or reserved. */
export function normalizeLoginId(text: string): string | undefined {
  const lower = text.trim().toLowerCase();
  return LOGIN_ID.test(lower) && lower !== "me" ? lower : undefined;
}

/** A user's resource name (§0.3): users/<login_id>. */
export function userName(loginId: string): string {
  return `users/${loginId}`;
}

export function parseLoginId(text: string, field: string): string {
  const loginId = normalizeLoginId(text);
  if (!loginId) throw invalidArgument(`${field}: ${quoted(text)} is not a valid login id`);
  return loginId;
}

/** Client-chosen ids of projects, instances, groups, identity providers, … (§0.3). */
export const RESOURCE_ID_PATTERN = /^[a-z][a-z0-9-]{0,62}$/;

/** The id of `<collection>/<id>`; a malformed name → invalid_argument naming the field. */
export function parseResourceName(name: string, collection: string, field: string): string {
  const prefix = `${collection}/`;
  const id = name.startsWith(prefix) ? name.slice(prefix.length) : "";
  if (!RESOURCE_ID_PATTERN.test(id)) throw invalidArgument(`${field}: ${quoted(name)} is not a valid name; use ${collection}/<id> with a lower-case id`);
  return id;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A create's optional request_id (§0.6): empty, or a UUID; invalid_argument otherwise. */
export function checkRequestId(requestId: string): void {
  if (requestId && !UUID.test(requestId)) throw invalidArgument(`request_id: ${quoted(requestId)} is not a UUID`);
}
