// The schema metadata of one database as sync records it (contract §9.5) and
// SQL review reads it (§10.4): the same shape for every engine. MySQL has no
// schemas inside a database: its objects sit in one schema named "".
export interface DatabaseMetadata {
  /** Sorted by name. */
  schemas: SchemaMetadata[];
}

export interface SchemaMetadata {
  name: string;
  /** Each list sorted by name. */
  tables: TableMetadata[];
  views: ViewMetadata[];
  functions: FunctionMetadata[];
}

export interface TableMetadata {
  name: string;
  /** In their ordinal order. */
  columns: ColumnMetadata[];
  /** Sorted by name; the primary key's index included (primary: true). */
  indexes: IndexMetadata[];
  /** Sorted by name. */
  constraints: ConstraintMetadata[];
  /** The engine's estimate (PostgreSQL reltuples, MySQL table_rows); 0 when unknown. */
  rowEstimate: number;
  comment: string;
  /** MySQL storage engine (e.g. InnoDB); "" on PostgreSQL. */
  engine: string;
}

export interface ColumnMetadata {
  name: string;
  /** As the engine prints it: "integer", "character varying(20)", "varchar(20)". */
  type: string;
  nullable: boolean;
  /** The default expression, or undefined when the column has none. */
  default?: string;
  comment: string;
}

export interface IndexMetadata {
  name: string;
  /** Key columns (or expressions) in key order. */
  columns: string[];
  unique: boolean;
  primary: boolean;
  /** The full definition, e.g. "CREATE INDEX idx_t_a ON public.t USING btree (a)". */
  definition: string;
}

export interface ConstraintMetadata {
  name: string;
  type: "PRIMARY KEY" | "UNIQUE" | "FOREIGN KEY" | "CHECK" | "EXCLUDE";
  /** The definition as the engine prints it, e.g. "FOREIGN KEY (a) REFERENCES u(id)". */
  definition: string;
}

export interface ViewMetadata {
  name: string;
  definition: string;
}

export interface FunctionMetadata {
  name: string;
  /** The full CREATE statement. */
  definition: string;
}
