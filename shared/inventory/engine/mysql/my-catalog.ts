// Reads one MySQL/MariaDB schema's metadata from information_schema (tables,
// columns, indexes, constraints) and SHOW CREATE (view and routine
// definitions), as DatabaseMetadata with one schema named "".
import type { Connection } from "mysql2/promise";
import type { ConstraintMetadata, DatabaseMetadata, IndexMetadata, TableMetadata } from "../metadata.ts";
import { sortByName } from "../ordering.ts";
import { isMariaDb } from "./my-flavor.ts";
import { quoteName, routineDefinitions, viewDefinitions } from "./my-show-create.ts";

type Value = string | number | null | undefined;
type Row = Record<string, Value>;

export async function readMysqlMetadata(connection: Connection, database: string): Promise<DatabaseMetadata> {
  const mariadb = await isMariaDb(connection);
  const rows = async (text: string) => (await connection.query(text, [database]))[0] as Row[];
  const tables = new Map<string, TableMetadata>();
  for (const t of await rows(TABLES)) {
    tables.set(String(t.name), { name: String(t.name), columns: [], indexes: [], constraints: [], rowEstimate: Number(t.rows ?? 0), comment: String(t.comment ?? ""), engine: String(t.engine ?? "") });
  }
  for (const c of await rows(COLUMNS)) {
    const defaultValue = columnDefault(c.defaultValue, mariadb);
    tables.get(String(c.tableName))?.columns.push({
      name: String(c.name),
      type: String(c.type),
      nullable: c.nullable === "YES",
      ...(defaultValue === undefined ? {} : { default: defaultValue }),
      comment: String(c.comment ?? ""),
    });
  }
  for (const [tableName, index] of indexes(await rows(mariadb ? INDEXES_MARIADB : INDEXES_MYSQL))) tables.get(tableName)?.indexes.push(index);
  const checks = await rows(mariadb ? CHECKS_MARIADB : CHECKS_MYSQL);
  for (const [tableName, constraint] of constraints(await rows(CONSTRAINTS), await rows(KEY_COLUMNS), await rows(REFERENTIAL), checks, database)) {
    tables.get(tableName)?.constraints.push(constraint);
  }
  for (const table of tables.values()) {
    sortByName(table.indexes);
    sortByName(table.constraints);
  }
  const views = await viewDefinitions(connection, database);
  const functions = await routineDefinitions(connection, database);
  return {
    schemas: [{ name: "", tables: sortByName([...tables.values()]), views: sortByName(views), functions: sortByName(functions) }],
  };
}

const TABLES = `select table_name as name, engine, table_rows as \`rows\`, table_comment as comment from information_schema.tables
  where table_schema = ? and table_type in ('BASE TABLE', 'SYSTEM VERSIONED')`;

const COLUMNS = `select table_name as tableName, column_name as name, column_type as type, is_nullable as nullable,
    column_default as defaultValue, column_comment as comment
  from information_schema.columns where table_schema = ? order by table_name, ordinal_position`;

const INDEX_COLUMNS = `table_name as tableName, index_name as name, non_unique as nonUnique, column_name as columnName,
    sub_part as subPart, index_type as indexType`;
const INDEXES_MARIADB = `select ${INDEX_COLUMNS}, null as expression from information_schema.statistics
  where table_schema = ? order by table_name, index_name, seq_in_index`;
const INDEXES_MYSQL = `select ${INDEX_COLUMNS}, expression from information_schema.statistics
  where table_schema = ? order by table_name, index_name, seq_in_index`;

const CONSTRAINTS = `select table_name as tableName, constraint_name as name, constraint_type as type
  from information_schema.table_constraints where table_schema = ?`;
const KEY_COLUMNS = `select table_name as tableName, constraint_name as name, column_name as columnName,
    referenced_table_schema as refSchema, referenced_table_name as refTable, referenced_column_name as refColumn
  from information_schema.key_column_usage where table_schema = ? order by table_name, constraint_name, ordinal_position`;
const REFERENTIAL = `select table_name as tableName, constraint_name as name, update_rule as onUpdate, delete_rule as onDelete
  from information_schema.referential_constraints where constraint_schema = ?`;
const CHECKS_MARIADB = `select table_name as tableName, constraint_name as name, check_clause as clause
  from information_schema.check_constraints where constraint_schema = ?`;
const CHECKS_MYSQL = `select tc.table_name as tableName, cc.constraint_name as name, cc.check_clause as clause
  from information_schema.check_constraints cc join information_schema.table_constraints tc
    on tc.constraint_schema = cc.constraint_schema and tc.constraint_name = cc.constraint_name and tc.constraint_type = 'CHECK'
  where cc.constraint_schema = ?`;

/** MariaDB prints literal defaults quoted and "NULL" for none; MySQL gives the raw value or null. */
function columnDefault(value: Value, mariadb: boolean): string | undefined {
  if (value === null || value === undefined || (mariadb && value === "NULL")) return undefined;
  return String(value);
}

function indexes(rows: Row[]): [string, IndexMetadata][] {
  const grouped = new Map<string, { tableName: string; rows: Row[] }>();
  for (const row of rows) {
    const key = `${row.tableName}\u0000${row.name}`;
    if (!grouped.has(key)) grouped.set(key, { tableName: String(row.tableName), rows: [] });
    grouped.get(key)!.rows.push(row);
  }
  return [...grouped.values()].map(({ tableName, rows: parts }) => {
    const first = parts[0]!;
    const name = String(first.name);
    const primary = name === "PRIMARY";
    const unique = Number(first.nonUnique) === 0;
    const columns = parts.map((p) => (p.columnName === null ? `(${String(p.expression ?? "")})` : String(p.columnName)));
    const keys = parts.map((p) => (p.columnName === null ? `(${String(p.expression ?? "")})` : `${quoteName(String(p.columnName))}${p.subPart === null ? "" : `(${p.subPart})`}`));
    const kind = primary ? "" : first.indexType === "FULLTEXT" || first.indexType === "SPATIAL" ? `${first.indexType} ` : unique ? "UNIQUE " : "";
    const definition = primary ? `PRIMARY KEY (${keys.join(", ")})` : `CREATE ${kind}INDEX ${quoteName(name)} ON ${quoteName(tableName)} (${keys.join(", ")})`;
    return [tableName, { name, columns, unique, primary, definition }];
  });
}

function constraints(rows: Row[], keyColumns: Row[], referential: Row[], checks: Row[], database: string): [string, ConstraintMetadata][] {
  const key = (row: Row) => `${row.tableName}\u0000${row.name}`;
  const columnsOf = new Map<string, Row[]>();
  for (const row of keyColumns) columnsOf.set(key(row), [...(columnsOf.get(key(row)) ?? []), row]);
  const rules = new Map(referential.map((r) => [key(r), r]));
  const clauses = new Map(checks.map((c) => [key(c), String(c.clause)]));
  return rows.map((row) => {
    const type = String(row.type) as ConstraintMetadata["type"];
    const parts = columnsOf.get(key(row)) ?? [];
    const list = (names: Value[]) => names.map((n) => quoteName(String(n))).join(", ");
    let definition = `${type} (${list(parts.map((p) => p.columnName))})`;
    if (type === "CHECK") definition = `CHECK (${clauses.get(key(row)) ?? ""})`;
    if (type === "FOREIGN KEY") {
      const first = parts[0];
      const refSchema = first?.refSchema && first.refSchema !== database ? `${quoteName(String(first.refSchema))}.` : "";
      const rule = rules.get(key(row));
      definition += ` REFERENCES ${refSchema}${quoteName(String(first?.refTable ?? ""))} (${list(parts.map((p) => p.refColumn))})`;
      definition += ` ON DELETE ${rule?.onDelete ?? "RESTRICT"} ON UPDATE ${rule?.onUpdate ?? "RESTRICT"}`;
    }
    return [String(row.tableName), { name: String(row.name), type, definition }];
  });
}
