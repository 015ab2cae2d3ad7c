// The CREATE statements MySQL/MariaDB prints for a schema's tables, views and
// routines (SHOW CREATE …), each list sorted by name.
import type { Connection } from "mysql2/promise";
import type { FunctionMetadata, ViewMetadata } from "../metadata.ts";
import { compareText } from "../ordering.ts";

export interface CreateStatement {
  name: string;
  /** "" when the connecting user may not read it. */
  definition: string;
}

export function quoteName(name: string): string {
  return `\`${name.replaceAll("`", "``")}\``;
}

export async function tableDefinitions(connection: Connection, database: string): Promise<CreateStatement[]> {
  const names = await namesOf(connection, TABLE_NAMES, database);
  return showEach(connection, names, (name) => `SHOW CREATE TABLE ${quoteName(database)}.${quoteName(name)}`, "Create Table");
}

export async function viewDefinitions(connection: Connection, database: string): Promise<ViewMetadata[]> {
  const names = await namesOf(connection, VIEW_NAMES, database);
  return showEach(connection, names, (name) => `SHOW CREATE VIEW ${quoteName(database)}.${quoteName(name)}`, "Create View");
}

/** Functions and procedures, by name (a function before a procedure of the same name). */
export async function routineDefinitions(connection: Connection, database: string): Promise<FunctionMetadata[]> {
  const [rows] = await connection.query(ROUTINES, [database]);
  const routines = (rows as { name: string; type: "FUNCTION" | "PROCEDURE" }[]).sort(
    (a, b) => compareText(a.name, b.name) || compareText(a.type, b.type),
  );
  const definitions: FunctionMetadata[] = [];
  for (const { name, type } of routines) {
    const column = type === "FUNCTION" ? "Create Function" : "Create Procedure";
    definitions.push(...(await showEach(connection, [name], (n) => `SHOW CREATE ${type} ${quoteName(database)}.${quoteName(n)}`, column)));
  }
  return definitions;
}

const TABLE_NAMES = `select table_name as name from information_schema.tables
  where table_schema = ? and table_type in ('BASE TABLE', 'SYSTEM VERSIONED')`;
const VIEW_NAMES = "select table_name as name from information_schema.views where table_schema = ?";
const ROUTINES = `select routine_name as name, routine_type as type from information_schema.routines
  where routine_schema = ? and routine_type in ('FUNCTION', 'PROCEDURE')`;

async function namesOf(connection: Connection, query: string, database: string): Promise<string[]> {
  const [rows] = await connection.query(query, [database]);
  return (rows as { name: string }[]).map((r) => r.name).sort(compareText);
}

async function showEach(connection: Connection, names: string[], statement: (name: string) => string, column: string): Promise<CreateStatement[]> {
  const statements: CreateStatement[] = [];
  for (const name of names) {
    const [rows] = await connection.query(statement(name));
    const definition = (rows as Record<string, string | null>[])[0]?.[column];
    statements.push({ name, definition: definition ?? "" });
  }
  return statements;
}
