// What masking needs to know of a read statement, whatever its engine.

export interface TableRef {
  /** "" on MySQL (the database is the schema). */
  schema: string;
  table: string;
}

/** A column's source: a table's column; a column of one of the statement's tables (unqualified); or untraced. */
export type ColumnSource = { table?: TableRef; column: string; untraced?: undefined } | { untraced: true; table?: undefined; column?: undefined };

export interface Lineage {
  /** Every table the statement names, anywhere. */
  tables: TableRef[];
  /** Per select-list entry, its source ("constant": reads no column); undefined when the statement is not followed. */
  outputs: (ColumnSource | "constant")[] | undefined;
  /** The select list holds a `*`: outputs no longer line up with the result's columns. */
  star: boolean;
  /** Names are lower-cased and compared so (MySQL's column names know no case). */
  caseless?: boolean;
  /** The columns the statement filters, joins, groups or orders by. */
  predicates: ColumnSource[];
}
