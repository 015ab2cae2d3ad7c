// The query history (contract §19.1): Query, Export and Execute each record
// the call that reached its target; a caller lists their own, and holders of
// bb.auditLogs.search (workspace) anyone's, newest first. Filter fields:
// database, statement (contains, case-insensitive), type, create_time, and
// creator (another user's only for those holders). Rows are kept for
// WORKSPACE_PROFILE.query_history_retention.
import type { CommonQueryMethods } from "slonik";
import { hasPermission, type IamReads, type IamSubject, permissionRequired, WORKSPACE } from "../../identity/index.ts";
import { readWorkspaceProfile, type SettingReader } from "../../governance/index.ts";
import { deleteBeyondRetention, type FilterFields, type FilterTerm, keysetPage, type Page, type PageRequest, parseFilter, userFilterValue } from "../../platform/index.ts";
import {
  deleteQueryHistoryBefore,
  insertQueryHistory,
  listQueryHistories,
  QUERY_HISTORY_TYPES,
  type QueryHistoryEntry,
  type QueryHistoryRow,
} from "./query-history.store.ts";

const FILTER_FIELDS: FilterFields = {
  database: { kind: "text" },
  statement: { kind: "substring" },
  type: { kind: "enum", values: QUERY_HISTORY_TYPES },
  create_time: { kind: "time" },
  creator: { kind: "text" },
};

/** Who may list anyone's history. */
const AUDITOR_PERMISSION = "bb.auditLogs.search";
const DELETE_BATCH = 10_000;

export function queryHistoryName(id: string): string {
  return `queryHistories/${id}`;
}

/** Keeps a query, export or execution in the history. */
export async function recordQueryHistory(db: CommonQueryMethods, entry: QueryHistoryEntry): Promise<void> {
  await insertQueryHistory(db, entry);
}

export interface QueryHistoryListRequest extends PageRequest {
  filter: string;
}

export async function listQueryHistoryPage(
  db: CommonQueryMethods,
  iam: IamReads,
  caller: IamSubject & { name: string },
  request: QueryHistoryListRequest,
): Promise<Page<QueryHistoryRow>> {
  const terms = parseFilter(request.filter, FILTER_FIELDS).map((term) => (term.field === "creator" ? creatorTerm(term, caller.name) : term));
  const auditor = await hasPermission(iam, caller, AUDITOR_PERMISSION, WORKSPACE);
  if (!auditor && terms.some((term) => term.field === "creator" && term.value !== caller.name)) {
    throw permissionRequired(AUDITOR_PERMISSION, WORKSPACE);
  }
  const creator = auditor ? undefined : caller.name;
  return keysetPage(
    request,
    JSON.stringify({ creator, terms }),
    ["time", "text"],
    (after, limit) => listQueryHistories(db, { creator, terms, after, limit }),
    (row) => [row.pageTime, row.id],
  );
}

function creatorTerm(term: FilterTerm, caller: string): FilterTerm {
  return { ...term, value: userFilterValue(String(term.value), caller, term.field) };
}

/** Deletes what is older than the retention (none when it is 0s); answers how many rows went. */
export async function deleteExpiredQueryHistory(db: CommonQueryMethods, settings: SettingReader, now = new Date()): Promise<number> {
  const retentionMs = (await readWorkspaceProfile(settings)).queryHistoryRetentionMs;
  return deleteBeyondRetention(retentionMs, now, DELETE_BATCH, (cutoff, limit) => deleteQueryHistoryBefore(db, cutoff, limit));
}
