// Masking of Query results (contract §19.2). Before a query runs, the
// database's catalog is read (one read: a database with no marked column
// costs nothing more); when the caller may not see some column, each
// statement's lineage is worked out and a statement filtering, joining,
// grouping or ordering by such a column is refused. After it ran, each result
// column traced to a sensitive column is masked with its algorithm, and one
// that cannot be traced is fully masked when the statement reads a sensitive
// column at all; a predicate on a column that cannot be traced refuses a
// statement that reads a sensitive column (it might be one). MySQL compares
// column names without case, so its names are compared lower-cased. A
// relation that is not a table of the synced metadata (a view, say) is read
// as if all its columns were sensitive: shown masked, refused in predicates.
// The target's message for a statement that reads a hidden column is withheld
// (a failed cast, say, would quote the value it could not read).
import type { CommonQueryMethods } from "slonik";
import { type DatabaseRef, type DatabaseRow } from "../../inventory/index.ts";
import { invalidArgument, quoted } from "../../platform/index.ts";
import type { Column, Row } from "../cells.ts";
import type { ReadStatement } from "../guard/statement-tree.ts";
import { findCatalog } from "./catalog.store.ts";
import type { ColumnSource, Lineage } from "./lineage.ts";
import { mysqlLineage } from "./my-lineage.ts";
import { postgresLineage } from "./pg-lineage.ts";
import { cellText } from "./cell-text.ts";
import { type ColumnMask, columnKey, sensitiveColumns, type SensitiveColumns } from "./sensitive-columns.ts";
import { FULL_MASK } from "./masking-algorithms.ts";
import { isKnownTable, type KnownTables, knownTables, UNKNOWN_RELATION } from "./known-tables.ts";

export interface MaskingReason {
  semanticType: string;
  reason: string;
}

export interface MaskingRequest {
  /** The request's statements as the read-only guard parsed them. */
  statements: readonly ReadStatement[];
  schema: string;
  /** users/<login_id> */
  caller: string;
}

export interface ResultMasker {
  /** Masks a statement's result in place; answers, per column, why it was masked ("" reason: shown as is). */
  mask(result: { statement: string; columns: Column[]; rows: Row[] }): MaskingReason[];
  /** The statement reads a column the caller may not see (or one that cannot be told apart from it). */
  hides(statement: string): boolean;
  /** Some statement of the request hides. */
  hidesAny: boolean;
}

export const WITHHELD_ERROR = "the statement failed; the database's message is withheld because it may show masked values";

/** The target's message for a statement as the caller may see it: withheld when the statement reads hidden columns. */
export function shownError(masker: ResultMasker | undefined, statement: string, error: string): string {
  return error && masker?.hides(statement) ? WITHHELD_ERROR : error;
}

/** The columns the caller may not see, and the tables outside which every relation counts as hiding them all. */
interface Hidden {
  columns: SensitiveColumns;
  tables: KnownTables;
}

const UNTRACED: ColumnMask = { semanticType: "", reason: "cannot be traced to one column, and the statement reads sensitive columns", mask: () => FULL_MASK };

/** The masker of the call, or undefined when nothing is hidden from the caller; refuses predicates on hidden columns. */
export async function prepareMasking(db: CommonQueryMethods, database: DatabaseRow, request: MaskingRequest): Promise<ResultMasker | undefined> {
  const ref: DatabaseRef = { instanceId: database.instanceId, name: database.name };
  const catalog = await findCatalog(db, ref);
  if (catalog.length === 0) return undefined;
  const found = await sensitiveColumns(db, database, catalog, request.caller.slice("users/".length));
  if (found.size === 0) return undefined;
  const postgres = database.engine === "POSTGRES";
  const columns = postgres ? found : new Map([...found].map(([key, mask]) => [key.toLowerCase(), mask]));
  const sensitive: Hidden = { columns, tables: await knownTables(db, ref, !postgres) };
  const lineages = new Map<string, Lineage | undefined>();
  for (const statement of request.statements) {
    const lineage = postgres ? postgresLineage(statement.tree, request.schema || "public") : mysqlLineage(statement.tree, ref.name, request.schema || ref.name);
    if (lineage) refuseHiddenPredicates(lineage, sensitive);
    lineages.set(statement.text, lineage);
  }
  const hides = (statement: string) => {
    const lineage = lineages.get(statement);
    return !lineage || readsSensitive(lineage, sensitive);
  };
  return { mask: (result) => maskResult(result, lineages.get(result.statement), sensitive), hides, hidesAny: [...lineages.keys()].some(hides) };
}

function refuseHiddenPredicates(lineage: Lineage, sensitive: Hidden): void {
  const clauses = "WHERE, JOIN ON, GROUP BY, ORDER BY or HAVING, a window's PARTITION BY or ORDER BY, or DISTINCT (or UNION, INTERSECT, EXCEPT)";
  for (const source of lineage.predicates) {
    if (source.untraced && readsSensitive(lineage, sensitive)) {
      throw invalidArgument(`statement: a column in ${clauses} cannot be traced to its table, and the statement reads masked columns: it might be one of them`);
    }
    const hidden = maskFor(source, lineage, sensitive);
    if (hidden === UNKNOWN_RELATION) {
      throw invalidArgument(`statement: column ${quoted(source.column ?? "?")} in ${clauses} is read through a view or unknown relation, and cannot be traced to the columns it shows: it might be a masked one`);
    }
    if (hidden) throw invalidArgument(`statement: column ${quoted(source.column ?? "?")} is masked (${hidden.reason}) and cannot be used in ${clauses}`);
  }
}

function maskResult(result: { columns: Column[]; rows: Row[] }, lineage: Lineage | undefined, sensitive: Hidden): MaskingReason[] {
  const masks = result.columns.map((column, i) => columnMaskOf(column.name, i, result.columns.length, lineage, sensitive));
  masks.forEach((mask, i) => {
    if (!mask) return;
    result.columns[i] = { ...result.columns[i]!, kind: "text" };
    for (const row of result.rows) if (row[i] !== null) row[i] = mask.mask(cellText(row[i]!));
  });
  return masks.map((mask) => ({ semanticType: mask?.semanticType ?? "", reason: mask?.reason ?? "" }));
}

function columnMaskOf(name: string, index: number, count: number, lineage: Lineage | undefined, sensitive: Hidden): ColumnMask | undefined {
  if (lineage && !readsSensitive(lineage, sensitive)) return undefined;
  if (!lineage?.outputs || (!lineage.star && lineage.outputs.length !== count)) return UNTRACED;
  const source = lineage.star ? { column: lineage.caseless ? name.toLowerCase() : name } : lineage.outputs[index]!;
  if (source === "constant") return undefined;
  return source.untraced ? UNTRACED : maskFor(source, lineage, sensitive);
}

function readsSensitive(lineage: Lineage, sensitive: Hidden): boolean {
  return lineage.tables.some((t) => !isKnownTable(t, sensitive.tables) || [...sensitive.columns.keys()].some((key) => key.startsWith(`${t.schema}.${t.table}.`)));
}

/** The mask of a traced column: its table's, or for an unqualified one the first of the statement's tables that hides it. */
function maskFor(source: ColumnSource, lineage: Lineage, sensitive: Hidden): ColumnMask | undefined {
  if (source.untraced) return undefined;
  const tables = source.table ? [source.table] : lineage.tables;
  for (const table of tables) {
    if (!isKnownTable(table, sensitive.tables)) return UNKNOWN_RELATION;
    const mask = sensitive.columns.get(columnKey(table.schema, table.table, source.column));
    if (mask) return mask;
  }
  return undefined;
}
