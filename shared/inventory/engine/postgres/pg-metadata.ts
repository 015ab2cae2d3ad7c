// Shapes a PostgreSQL catalog read into the engine-neutral DatabaseMetadata.
import type { ConstraintMetadata, DatabaseMetadata, SchemaMetadata, TableMetadata } from "../metadata.ts";
import { compareText, sortByName } from "../ordering.ts";
import type { PgCatalog, PgTable } from "./pg-catalog.ts";

const CONSTRAINT_TYPES: Record<string, ConstraintMetadata["type"]> = {
  p: "PRIMARY KEY",
  u: "UNIQUE",
  f: "FOREIGN KEY",
  c: "CHECK",
  x: "EXCLUDE",
};

export function toMetadata(catalog: PgCatalog): DatabaseMetadata {
  const schemas = new Map<string, SchemaMetadata>(catalog.schemas.map((s) => [s.name, { name: s.name, tables: [], views: [], functions: [] }]));
  const schemaOf = (name: string) => schemas.get(name)!;
  for (const table of catalog.tables) schemaOf(table.schema).tables.push(toTable(table));
  for (const view of catalog.views) schemaOf(view.schema).views.push({ name: view.name, definition: view.definition });
  const functions = [...catalog.functions].sort((a, b) => compareText(a.name, b.name) || compareText(a.arguments, b.arguments));
  for (const fn of functions) schemaOf(fn.schema).functions.push({ name: fn.name, definition: fn.definition.trimEnd() });
  for (const schema of schemas.values()) {
    sortByName(schema.tables);
    sortByName(schema.views);
  }
  return { schemas: sortByName([...schemas.values()]) };
}

function toTable(table: PgTable): TableMetadata {
  return {
    name: table.name,
    columns: table.columns.map((c) => ({
      name: c.name,
      type: c.type,
      nullable: !c.notNull,
      ...(c.defaultExpr !== null && c.generated === "" ? { default: c.defaultExpr } : {}),
      comment: c.comment,
    })),
    indexes: sortByName(table.indexes.map((i) => ({ name: i.name, columns: i.columns, unique: i.unique, primary: i.primary, definition: i.definition }))),
    constraints: sortByName(table.constraints.map((c) => ({ name: c.name, type: CONSTRAINT_TYPES[c.contype]!, definition: c.definition }))),
    rowEstimate: Math.round(table.rowEstimate),
    comment: table.comment,
    engine: "",
  };
}
