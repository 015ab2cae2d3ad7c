// Audit search (contract §8.3, §2.1–§2.4): the filter fields of the audit
// trail, the actor forms (alice, users/alice, me), the two orders, and keyset
// pages whose token is bound to the query.
import type { CommonQueryMethods } from "slonik";
import {
  decodePageToken,
  encodePageToken,
  type FilterFields,
  type FilterTerm,
  invalidArgument,
  normalizeLoginId,
  pageSize,
  parseFilter,
  parseOrderBy,
  parseRfc3339,
  userFilterValue,
  userName,
} from "../../platform/index.ts";
import { ANONYMOUS_ACTOR, SCIM_ACTOR, SYSTEM_ACTOR } from "./actions.ts";
import type { AuditRecord } from "./audit.ts";
import { findAuditRecords, type AuditPosition } from "./audit-search.store.ts";

/** The Connect code names a record's status may hold, "ok" for success (contract §18.9). */
const STATUS_CODES = [
  "ok", "canceled", "unknown", "invalid_argument", "deadline_exceeded", "not_found", "already_exists", "permission_denied",
  "resource_exhausted", "failed_precondition", "aborted", "out_of_range", "unimplemented", "internal", "unavailable",
  "data_loss", "unauthenticated",
];

const AUDIT_FILTER_FIELDS: FilterFields = {
  actor: { kind: "text" },
  action: { kind: "text" },
  method: { kind: "text" },
  resource: { kind: "prefix" },
  severity: { kind: "enum", values: ["INFO", "WARNING", "ERROR", "CRITICAL"] },
  actor_ip: { kind: "text" },
  status: { kind: "enum", values: STATUS_CODES },
  create_time: { kind: "time" },
  correlation_id: { kind: "text" },
};

const ORDER_FIELDS = ["create_time"];
const NEWEST_FIRST = [{ field: "create_time", desc: true }];

/** Largest audit page (contract §2.1). */
const MAX_AUDIT_PAGE_SIZE = 5000;

export interface AuditQuery {
  terms: FilterTerm[];
  desc: boolean;
  /** What a page token is bound to: the resolved terms and the order. */
  fingerprint: string;
}

export interface AuditQueryInput {
  filter: string;
  orderBy: string;
  /** The caller's resource name (users/<login_id>), which `actor:me` stands for. */
  caller: string;
}

export function parseAuditQuery(input: AuditQueryInput): AuditQuery {
  const terms = parseFilter(input.filter, AUDIT_FILTER_FIELDS).map((term) =>
    term.field === "actor" ? { ...term, value: actorName(String(term.value), input.caller) } : term,
  );
  const [order] = parseOrderBy(input.orderBy, ORDER_FIELDS, NEWEST_FIRST);
  const desc = order?.desc ?? true;
  return { terms, desc, fingerprint: JSON.stringify({ terms, desc }) };
}

/**
 * The stored actor a filter value names: `me` and `users/me` the caller,
 * `system`, `anonymous` and `scim` themselves, `alice` and `users/alice` the
 * user. A login id no user can have is taken as typed, as a refused sign-in
 * records it (`users/<attempted login id>`).
 */
function actorName(value: string, caller: string): string {
  if (value === SYSTEM_ACTOR || value === ANONYMOUS_ACTOR || value === SCIM_ACTOR) return value;
  const typed = value.startsWith("users/") ? value.slice("users/".length) : value;
  const userForm = typed === "" || typed === "me" || normalizeLoginId(typed) !== undefined;
  if (userForm) return userFilterValue(value, caller, "actor");
  return userName(typed);
}

export interface AuditPageRequest {
  pageSize: number;
  pageToken: string;
}

export interface AuditPage {
  records: AuditRecord[];
  nextPageToken: string;
}

export async function searchAuditLogs(db: CommonQueryMethods, query: AuditQuery, page: AuditPageRequest): Promise<AuditPage> {
  const limit = pageSize(page.pageSize, { max: MAX_AUDIT_PAGE_SIZE });
  const after = positionOf(decodePageToken(page.pageToken, query.fingerprint));
  // One record more than the page shows whether another page follows.
  const rows = await findAuditRecords(db, { terms: query.terms, desc: query.desc, after, limit: limit + 1 });
  const records = rows.slice(0, limit);
  const last = records.at(-1);
  const nextPageToken = rows.length > limit && last ? encodePageToken(query.fingerprint, [last.position.time, last.position.id]) : "";
  return { records, nextPageToken };
}

function positionOf(key: (string | number)[] | undefined): AuditPosition | undefined {
  if (key === undefined) return undefined;
  const [time, id] = key;
  const valid = key.length === 2 && typeof time === "string" && parseRfc3339(time) !== undefined && typeof id === "string" && /^\d{1,19}$/.test(id);
  if (!valid) throw invalidArgument("page_token is malformed");
  return { time, id };
}
