// The query_history table (migration 0026): one row per query, export and
// execution, listed newest first and deleted once older than the retention.
import { type CommonQueryMethods, type FragmentSqlToken, sql } from "slonik";
import { z } from "zod";
import { afterNewest, type FilterTerm, newestFirst, type PageKey, pageTimeColumn, sqlOperator, withPageTime } from "../../platform/index.ts";

export const QUERY_HISTORY_TYPES = ["QUERY", "EXPORT", "EXECUTE"] as const;
export type QueryHistoryType = (typeof QUERY_HISTORY_TYPES)[number];

/** What a query, export or execution leaves in the history. */
export interface QueryHistoryEntry {
  /** users/<login_id> */
  creator: string;
  /** instances/<instance>/databases/<database> */
  database: string;
  statement: string;
  type: QueryHistoryType;
  durationMs: number;
  rowCount: number;
  /** "" when it succeeded. */
  error: string;
}

const historyRow = z
  .object({
    id: z.string(),
    creator: z.string(),
    database: z.string(),
    statement: z.string(),
    type: z.enum(QUERY_HISTORY_TYPES),
    create_time: z.coerce.date(),
    duration_ms: z.coerce.number(),
    row_count: z.coerce.number(),
    error: z.string(),
  })
  .transform(({ create_time, duration_ms, row_count, ...rest }) => ({ ...rest, createTime: create_time, durationMs: duration_ms, rowCount: row_count }));

const listedRow = withPageTime(historyRow);

export type QueryHistoryRow = z.infer<typeof listedRow>;

const columns = sql.fragment`id::text as id, creator, database, statement, type, create_time, duration_ms, row_count, error`;

export async function insertQueryHistory(db: CommonQueryMethods, entry: QueryHistoryEntry): Promise<void> {
  await db.query(sql.unsafe`
    insert into query_history (creator, database, statement, type, duration_ms, row_count, error)
    values (${entry.creator}, ${entry.database}, ${entry.statement}, ${entry.type}, ${Math.max(0, Math.round(entry.durationMs))},
            ${Math.max(0, entry.rowCount)}, ${entry.error})`);
}

export interface QueryHistoryListQuery {
  /** Only this creator's rows; undefined: anyone's. */
  creator: string | undefined;
  terms: readonly FilterTerm[];
  after: PageKey | undefined;
  limit: number;
}

/** Rows newest first, each with its page time. */
export async function listQueryHistories(db: CommonQueryMethods, query: QueryHistoryListQuery): Promise<readonly QueryHistoryRow[]> {
  const conditions = query.terms.map(condition);
  if (query.creator !== undefined) conditions.push(sql.fragment`creator = ${query.creator}`);
  if (query.after) conditions.push(afterNewest(query.after));
  const where = conditions.length ? sql.fragment`where ${sql.join(conditions, sql.fragment` and `)}` : sql.fragment``;
  return db.any(sql.type(listedRow)`select ${columns}, ${pageTimeColumn} from query_history ${where} ${newestFirst} limit ${query.limit}`);
}

function condition(term: FilterTerm): FragmentSqlToken {
  if (term.field === "create_time") return sql.fragment`create_time ${sqlOperator(term.op)} ${(term.value as Date).toISOString()}::timestamptz`;
  const value = String(term.value);
  if (term.field === "statement" && term.op === ":") return sql.fragment`strpos(lower(statement), ${value.toLowerCase()}) > 0`;
  return sql.fragment`${sql.identifier([term.field])} ${sqlOperator(term.op)} ${value}`;
}

/** Deletes up to `batch` rows created before `cutoff`, oldest first; answers how many went. */
export async function deleteQueryHistoryBefore(db: CommonQueryMethods, cutoff: Date, batch: number): Promise<number> {
  const result = await db.query(sql.unsafe`
    delete from query_history where id in (
      select id from query_history where create_time < ${cutoff.toISOString()}::timestamptz order by create_time, id limit ${batch})`);
  return result.rowCount;
}
