// The DDL text of a PostgreSQL database, built from a catalog read (contract
// §9.5): extensions, schemas, enum types, sequences, functions, tables,
// partitions, sequence ownership, constraints, indexes, views and comments, in
// a fixed order by kind and then by name (views after the views they read), so
// the same schema always gives byte-identical text. Nothing in it depends on
// object ids, creation order or data.
import { compareText, dependencyOrder } from "../ordering.ts";
import type { PgCatalog, PgColumn, PgConstraint, PgIndex, PgTable } from "./pg-catalog.ts";

// Keys first, so that foreign keys find their referenced unique index.
const CONSTRAINT_ORDER = ["p", "u", "x", "c", "f"];

export function renderDdl(catalog: PgCatalog): string {
  const tables = [...catalog.tables].sort((a, b) => compareText(a.qname, b.qname));
  const statements = [
    ...sorted(catalog.extensions.map((e) => `CREATE EXTENSION IF NOT EXISTS ${e.qname} WITH SCHEMA ${e.qschema};`)),
    ...sorted(catalog.schemas.map((s) => `CREATE SCHEMA IF NOT EXISTS ${s.qname};`)),
    ...sorted(catalog.enums.map((e) => `CREATE TYPE ${e.qname} AS ENUM (${e.labels.join(", ")});`)),
    ...sorted(catalog.sequences.map(
      (s) =>
        `CREATE SEQUENCE ${s.qname} AS ${s.type} START WITH ${s.start} INCREMENT BY ${s.increment} MINVALUE ${s.min} MAXVALUE ${s.max} CACHE ${s.cache}${s.cycle ? " CYCLE" : ""};`,
    )),
    ...sorted(catalog.functions.map((f) => `${f.definition.trimEnd()};`)),
    ...tables.map(createTable),
    ...tables.filter((t) => t.partitionOf).map((t) => `ALTER TABLE ${t.partitionOf} ATTACH PARTITION ${t.qname} ${t.partitionBound};`),
    ...sorted(catalog.sequences.filter((s) => s.ownedBy).map((s) => `ALTER SEQUENCE ${s.qname} OWNED BY ${s.ownedBy};`)),
    ...constraints(tables),
    ...tables.flatMap((t) => sortedBy(t.indexes.filter((i) => !i.backsConstraint && !i.partitionChild), (i) => i.name).map(createIndex)),
    ...views(catalog),
    ...comments(catalog, tables),
  ];
  return statements.length ? `${statements.join("\n\n")}\n` : "";
}

function createTable(table: PgTable): string {
  const columns = table.columns.map((c) => `    ${columnDefinition(c)}`).join(",\n");
  const partitioning = table.partitionKey ? ` PARTITION BY ${table.partitionKey}` : "";
  return `CREATE ${table.unlogged ? "UNLOGGED " : ""}TABLE ${table.qname} (\n${columns}\n)${partitioning};`;
}

/** A partitioned table's index is created for its partitions too (they are not listed apart). */
function createIndex(index: PgIndex): string {
  return `${index.definition.replace(/ ON ONLY /, " ON ")};`;
}

function columnDefinition(column: PgColumn): string {
  const parts = [column.qname, column.type];
  if (column.collation) parts.push(`COLLATE ${column.collation}`);
  if (column.generated === "s") parts.push(`GENERATED ALWAYS AS (${column.defaultExpr}) STORED`);
  else if (column.defaultExpr !== null) parts.push(`DEFAULT ${column.defaultExpr}`);
  if (column.identity) parts.push(`GENERATED ${column.identity === "a" ? "ALWAYS" : "BY DEFAULT"} AS IDENTITY`);
  if (column.notNull) parts.push("NOT NULL");
  return parts.join(" ");
}

function constraints(tables: PgTable[]): string[] {
  const rows: { table: PgTable; constraint: PgConstraint }[] = tables.flatMap((table) =>
    table.constraints.filter((c) => !c.inherited).map((constraint) => ({ table, constraint })),
  );
  rows.sort(
    (a, b) =>
      CONSTRAINT_ORDER.indexOf(a.constraint.contype) - CONSTRAINT_ORDER.indexOf(b.constraint.contype) ||
      compareText(a.table.qname, b.table.qname) ||
      compareText(a.constraint.name, b.constraint.name),
  );
  return rows.map(({ table, constraint }) => `ALTER TABLE ${table.qname} ADD CONSTRAINT ${constraint.qname} ${constraint.definition};`);
}

function views(catalog: PgCatalog): string[] {
  const byOid = new Map(catalog.views.map((v) => [v.oid, v]));
  const byName = new Map(catalog.views.map((v) => [v.qname, v]));
  const dependsOn = new Map(catalog.views.map((v) => [v.qname, new Set(v.dependsOn.flatMap((oid) => byOid.get(oid)?.qname ?? []))]));
  return dependencyOrder([...byName.keys()], dependsOn).map((qname) => {
    const view = byName.get(qname)!;
    const body = view.definition.trim().replace(/;$/, "");
    return view.materialized ? `CREATE MATERIALIZED VIEW ${qname} AS\n${body}\nWITH NO DATA;` : `CREATE VIEW ${qname} AS\n${body};`;
  });
}

function comments(catalog: PgCatalog, tables: PgTable[]): string[] {
  const relations = [
    ...tables.map((t) => ({ qname: t.qname, kind: "TABLE", comment: t.comment, columns: t.columns })),
    ...catalog.views.map((v) => ({ qname: v.qname, kind: v.materialized ? "MATERIALIZED VIEW" : "VIEW", comment: v.comment, columns: [] as PgColumn[] })),
  ];
  return sortedBy(relations, (r) => r.qname).flatMap((r) => [
    ...(r.comment ? [`COMMENT ON ${r.kind} ${r.qname} IS ${quoteLiteral(r.comment)};`] : []),
    ...r.columns.filter((c) => c.comment).map((c) => `COMMENT ON COLUMN ${r.qname}.${c.qname} IS ${quoteLiteral(c.comment)};`),
  ]);
}

function sorted(statements: string[]): string[] {
  return statements.sort(compareText);
}

function sortedBy<T>(items: T[], key: (item: T) => string): T[] {
  return items.sort((a, b) => compareText(key(a), key(b)));
}

function quoteLiteral(text: string): string {
  return `'${text.replaceAll("'", "''")}'`;
}
