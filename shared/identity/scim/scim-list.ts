// Query parameters of SCIM reads (RFC 7644 §3.4.2): filter, startIndex
// (1-based) and count for paging, attributes and excludedAttributes to
// shape each resource; and the ListResponse that answers a search.
import { quoted } from "../../platform/index.ts";
import { invalidFilter, invalidValue } from "./scim-error.ts";
import { parseAttributePath, parseFilter, type Comparison } from "./scim-filter.ts";
import type { JsonObject } from "./scim-json.ts";
import { MAX_RESULTS, SCIM_SCHEMA } from "./scim-schemas.ts";

/** Which top-level attributes an answer shows: only `attributes` when given, never the `excluded`. */
export interface Projection {
  attributes: readonly string[];
  excluded: readonly string[];
}

export interface ListQuery {
  filter: Comparison[];
  /** 1-based position of the first resource answered. */
  startIndex: number;
  count: number;
  projection: Projection;
}

export type QueryParameters = Record<string, unknown>;

const DEFAULT_COUNT = 100;
const ALWAYS_RETURNED = new Set(["id", "schemas", "meta"]);

export function parseListQuery(query: QueryParameters): ListQuery {
  const filter = parameter(query, "filter");
  return {
    filter: filter ? parseFilter(filter, invalidFilter) : [],
    startIndex: Math.max(1, integer(query, "startIndex") ?? 1),
    count: Math.min(MAX_RESULTS, Math.max(0, integer(query, "count") ?? DEFAULT_COUNT)),
    projection: parseProjection(query),
  };
}

export function parseProjection(query: QueryParameters): Projection {
  return { attributes: attributeList(query, "attributes"), excluded: attributeList(query, "excludedAttributes") };
}

/** True when the answer shows the top-level attribute `name` (lower-case). */
export function shows(projection: Projection, name: string): boolean {
  if (ALWAYS_RETURNED.has(name)) return true;
  if (projection.attributes.length > 0) return projection.attributes.includes(name);
  return !projection.excluded.includes(name);
}

/** The resource with only the attributes the projection shows. */
export function project(resource: JsonObject, projection: Projection): JsonObject {
  return Object.fromEntries(Object.entries(resource).filter(([key]) => shows(projection, key.toLowerCase())));
}

export function listResponse(resources: readonly JsonObject[], totalResults: number, startIndex: number): JsonObject {
  return { schemas: [SCIM_SCHEMA.listResponse], totalResults, startIndex, itemsPerPage: resources.length, Resources: [...resources] };
}

function parameter(query: QueryParameters, name: string): string | undefined {
  const value = query[name];
  if (value === undefined) return undefined;
  if (typeof value !== "string") throw invalidValue(`${name} is given more than once`);
  return value;
}

function integer(query: QueryParameters, name: string): number | undefined {
  const text = parameter(query, name);
  if (text === undefined || text === "") return undefined;
  if (!/^-?\d{1,15}$/.test(text.trim())) throw invalidValue(`${name} must be an integer, got ${quoted(text)}`);
  return Number(text);
}

/** "userName,emails.value" → username, emails (the top-level attributes). */
function attributeList(query: QueryParameters, name: string): string[] {
  const text = parameter(query, name) ?? "";
  return text
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean)
    .map((item) => parseAttributePath(item, (message) => invalidValue(`${name}: ${message}`)).attribute);
}
