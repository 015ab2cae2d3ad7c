// Completion of table and column names from a database's schema metadata as
// the last sync recorded it (GetDatabaseMetadata), beside lang-sql's keywords.
import { autocompletion } from "@codemirror/autocomplete";
import { MySQL, PostgreSQL, schemaCompletionSource, type SQLNamespace } from "@codemirror/lang-sql";
import type { Extension } from "@codemirror/state";
import type { DatabaseMetadata } from "@gen/svc/v1/database_service_pb.js";
import type { SqlDialect } from "../../components/sql-editor-field/statement-at.ts";

/** `{schema: {table: [columns]}}`; a MySQL database's one schema ("") holds its tables directly. */
export function completionSchema(metadata: Pick<DatabaseMetadata, "schemas">): SQLNamespace {
  const namespace: Record<string, Record<string, string[]> | string[]> = {};
  for (const schema of metadata.schemas) {
    const tables = Object.fromEntries([...schema.tables, ...schema.views.map((view) => ({ name: view.name, columns: [] as { name: string }[] }))].map((t) => [t.name, t.columns.map((c) => c.name)]));
    if (schema.name) namespace[schema.name] = tables;
    else Object.assign(namespace, tables);
  }
  return namespace;
}

export function schemaCompletion(dialect: SqlDialect, metadata: Pick<DatabaseMetadata, "schemas"> | undefined): Extension {
  const language = dialect === "mysql" ? MySQL : PostgreSQL;
  const schema = metadata ? completionSchema(metadata) : {};
  return [
    autocompletion(),
    language.language.data.of({ autocomplete: schemaCompletionSource({ dialect: language, schema, defaultSchema: dialect === "postgres" ? "public" : undefined }) }),
  ];
}
