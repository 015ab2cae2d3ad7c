// The sql-editor capability's public surface: what the processes use.
// Everything else under shared/sql-editor/ is private to it.
export { type Cell, type CellKind, type Column, fitsInt64, type Instant, instantOf, type Row, Timestamp } from "./cells.ts";
export { readStatements } from "./guard/read-only-guard.ts";
export { explainStatement, type ExplainRequest, type Plan } from "./query/explain.ts";
export { type ReadStatement } from "./guard/statement-tree.ts";
export { DEFAULT_LIMIT, MAX_LIMIT, queryDatabase, type QueryDeps, type QueryRequest, queryLimit, type StatementResult } from "./query/query.ts";
export { type Dialect, openReadSession, type ReadPlace, type ReadSession, type ReadSessionOptions, type RowSink, withReadSession } from "./session/read-session.ts";
export { ReadConnections } from "./session/read-connections.ts";
export {
  deleteExpiredQueryHistory,
  listQueryHistoryPage,
  queryHistoryName,
  recordQueryHistory,
} from "./history/query-history.ts";
export type { QueryHistoryEntry, QueryHistoryRow, QueryHistoryType } from "./history/query-history.store.ts";
export { type ExecutedStatement, executeScript } from "./execute/execute-script.ts";
export { type ExportFile, exportFile, type ExportFormat, type ExportOptions } from "./export/export-file.ts";
export { exportTableName } from "./export/export-table.ts";
export { type ExportChunk, type ExportRequest, exportStatement } from "./query/export.ts";
export { type CatalogColumn, type CatalogSchema, type CatalogTable, getDatabaseCatalog, updateDatabaseCatalog } from "./masking/database-catalog.ts";
export { getMaskingPolicy, type MaskingPolicy, type PolicyContent, updateMaskingPolicy } from "./masking/masking-policies.ts";
export type { MaskingReason } from "./masking/result-masking.ts";
