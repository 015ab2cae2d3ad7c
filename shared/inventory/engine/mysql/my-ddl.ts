// The DDL text of a MySQL/MariaDB schema (contract §9.5): SHOW CREATE of its
// tables, views, functions and procedures, each kind sorted by name, with the
// AUTO_INCREMENT=n table option removed so that the text does not drift with data.
import type { Connection } from "mysql2/promise";
import { routineDefinitions, tableDefinitions, viewDefinitions, type CreateStatement } from "./my-show-create.ts";

// The table option only, on the closing line of SHOW CREATE TABLE (a column's AUTO_INCREMENT has no "=").
const AUTO_INCREMENT_OPTION = / AUTO_INCREMENT=\d+/;

export async function mysqlSchemaDdl(connection: Connection, database: string): Promise<string> {
  const tables = (await tableDefinitions(connection, database)).map((t) => ({ ...t, definition: withoutAutoIncrement(t.definition) }));
  const views = await viewDefinitions(connection, database);
  const routines = await routineDefinitions(connection, database);
  const statements = [...tables.map((t) => render(t, ";")), ...views.map((v) => render(v, ";")), ...routines.map((r) => render(r, ";;"))];
  return statements.length ? `${statements.join("\n\n")}\n` : "";
}

function withoutAutoIncrement(definition: string): string {
  const closing = definition.lastIndexOf("\n)");
  if (closing < 0) return definition;
  return definition.slice(0, closing) + definition.slice(closing).replace(AUTO_INCREMENT_OPTION, "");
}

/** Routine bodies hold semicolons, so they end with `;;` between DELIMITER commands. */
function render(statement: CreateStatement, delimiter: ";" | ";;"): string {
  if (!statement.definition) return `-- ${statement.name}: definition not readable by the connecting user`;
  return delimiter === ";" ? `${statement.definition};` : `DELIMITER ;;\n${statement.definition};;\nDELIMITER ;`;
}
