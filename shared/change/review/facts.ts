// The engine-neutral model of one parsed statement: what the review rules
// (contract §10.4) and the statement summary (§10.3) need to know, filled by
// each engine's adapter from its parser's tree. Names are as the engine keeps
// them (PostgreSQL folds unquoted identifiers to lower case).

export type StatementKind = "DDL" | "DML" | "OTHER";

/** A table as the statement names it; schema absent when unqualified. */
export interface TableRef {
  schema?: string;
  name: string;
}

export interface ColumnDef {
  name: string;
  /** The type: canonical name, arguments and attributes (see column-types.ts), e.g. "varchar(20)". */
  type: string;
  /** The canonical type name alone, e.g. "varchar". */
  typeName: string;
  notNull: boolean;
  hasDefault: boolean;
  /** The engine fills it: identity, serial, AUTO_INCREMENT or a generated column. */
  generated: boolean;
  primaryKey: boolean;
}

export interface IndexDef {
  table: TableRef;
  name?: string;
  /** Key columns in key order; an expression key is "(expression)". */
  columns: string[];
  unique: boolean;
  primary: boolean;
  /** Declared as an index (CREATE INDEX, KEY …), not implied by a PRIMARY KEY or UNIQUE constraint. */
  declared: boolean;
  concurrently: boolean;
}

export type ConstraintType = "PRIMARY KEY" | "UNIQUE" | "FOREIGN KEY" | "CHECK" | "EXCLUDE";

export interface ConstraintDef {
  table: TableRef;
  type: ConstraintType;
  name?: string;
  /** Added with NOT VALID (PostgreSQL): existing rows are not checked. */
  notValid: boolean;
  /** Part of a CREATE TABLE rather than added to a table by ALTER TABLE. */
  inCreateTable: boolean;
}

export interface TypeChange {
  table: TableRef;
  column: string;
  /** The new type, in ColumnDef.type and ColumnDef.typeName form. */
  type: string;
  typeName: string;
  /** True when the statement asks for a type change (ALTER COLUMN TYPE); false when it restates the column (MySQL MODIFY/CHANGE), a change only if the type differs. */
  explicit: boolean;
}

export interface StatementFacts {
  /** E.g. "CREATE_TABLE", "ALTER_TABLE", "UPDATE", "COMMIT". */
  sqlType: string;
  kind: StatementKind;
  /** Tables the statement changes or reads. */
  tables: TableRef[];
  /** UPDATE, DELETE, and SELECT from a table: whether every such part has a WHERE clause. */
  filtered?: { verb: "UPDATE" | "DELETE" | "SELECT"; table?: TableRef; hasWhere: boolean };
  /** A `*` in a select list (not count(*)). */
  selectStar: boolean;
  /** LIKE patterns that start with a wildcard. */
  leadingWildcards: string[];
  transaction?: "BEGIN" | "COMMIT" | "ROLLBACK";
  insert?: { table: TableRef; valuesRows: number; columnList: boolean };
  droppedDatabases: { kind: "DATABASE" | "SCHEMA"; name: string }[];
  createTable?: {
    table: TableRef;
    columns: ColumnDef[];
    hasPrimaryKey: boolean;
    /** The columns come from elsewhere (AS SELECT, LIKE, PARTITION OF): column rules do not apply. */
    derived: boolean;
    /** Storage engine named in the statement (MySQL). */
    engine?: string;
    hasComment: boolean;
  };
  alterTable?: { table: TableRef; algorithmOrLock: boolean };
  /** ENGINE= of a CREATE or ALTER TABLE (MySQL). */
  tableEngine?: { table: TableRef; engine: string };
  addedColumns: { table: TableRef; column: ColumnDef }[];
  droppedColumns: { table: TableRef; column: string }[];
  renamedColumns: { table: TableRef; from: string; to: string }[];
  typeChanges: TypeChange[];
  constraints: ConstraintDef[];
  createdIndexes: IndexDef[];
  /** Indexes (or index-backed constraints) dropped: with their table when the statement names it, else the schema when qualified. */
  droppedIndexes: { name: string; table?: TableRef; schema?: string }[];
  droppedTables: TableRef[];
  renamedTables: { from: TableRef; to: TableRef }[];
  truncatedTables: TableRef[];
  /** Tables given a (non-empty) comment: COMMENT ON TABLE, ALTER TABLE … COMMENT. */
  commentedTables: TableRef[];
  /** Other objects the statement names into being: views, schemas, databases, sequences, functions, renamed indexes. */
  otherNames: { kind: string; name: string }[];
  /** SET name = value (value lower-cased; "default" for DEFAULT and RESET). */
  setting?: { name: string; value: string };
  /** A DDL statement that rewrites (copies) the table. */
  rewrites?: TableRef;
}

export function emptyFacts(sqlType: string, kind: StatementKind): StatementFacts {
  return {
    sqlType,
    kind,
    tables: [],
    selectStar: false,
    leadingWildcards: [],
    droppedDatabases: [],
    addedColumns: [],
    droppedColumns: [],
    renamedColumns: [],
    typeChanges: [],
    constraints: [],
    createdIndexes: [],
    droppedIndexes: [],
    droppedTables: [],
    renamedTables: [],
    truncatedTables: [],
    commentedTables: [],
    otherNames: [],
  };
}

/** How a table reads in advice text: "t" or "s.t". */
export function tableLabel(table: TableRef): string {
  return table.schema ? `${table.schema}.${table.name}` : table.name;
}

export interface DefinedName {
  kind: "table" | "column" | "index" | "constraint" | string;
  name: string;
}

/** Every identifier the statement gives to a new or renamed object (each name once: a UNIQUE constraint and its index share theirs). */
export function definedNames(facts: StatementFacts): DefinedName[] {
  const names: DefinedName[] = [];
  if (facts.createTable) {
    names.push({ kind: "table", name: facts.createTable.table.name });
    for (const column of facts.createTable.columns) names.push({ kind: "column", name: column.name });
  }
  for (const { to } of facts.renamedTables) names.push({ kind: "table", name: to.name });
  for (const { column } of facts.addedColumns) names.push({ kind: "column", name: column.name });
  for (const { to } of facts.renamedColumns) names.push({ kind: "column", name: to });
  for (const index of facts.createdIndexes) if (index.name) names.push({ kind: "index", name: index.name });
  for (const constraint of facts.constraints) if (constraint.name) names.push({ kind: "constraint", name: constraint.name });
  names.push(...facts.otherNames);
  const seen = new Set<string>();
  return names.filter(({ name }) => !seen.has(name) && !!seen.add(name));
}
