// Reads one PostgreSQL database's schema from the system catalog: the rows
// that both the metadata (pg-metadata.ts) and the DDL text (pg-ddl.ts) are
// built from. Run with an empty search_path so that every name the server
// prints (types, defaults, constraint and view definitions) is
// schema-qualified, the same way on every read. Objects that belong to an
// extension are left out (the extension stands for them).
import type pg from "pg";

export interface PgCatalog {
  schemas: PgSchema[];
  extensions: { qname: string; qschema: string }[];
  enums: { schema: string; name: string; qname: string; labels: string[] }[];
  sequences: PgSequence[];
  tables: PgTable[];
  views: PgView[];
  functions: PgFunction[];
}

export interface PgSchema {
  name: string;
  qname: string;
}

export interface PgSequence {
  schema: string;
  qname: string;
  type: string;
  start: string;
  increment: string;
  min: string;
  max: string;
  cache: string;
  cycle: boolean;
  /** "schema.table.column" (quoted) of a serial column's sequence, else null. */
  ownedBy: string | null;
}

export interface PgTable {
  oid: number;
  schema: string;
  name: string;
  qname: string;
  unlogged: boolean;
  rowEstimate: number;
  comment: string;
  partitionKey: string | null;
  partitionOf: string | null;
  partitionBound: string | null;
  columns: PgColumn[];
  indexes: PgIndex[];
  constraints: PgConstraint[];
}

export interface PgColumn {
  name: string;
  qname: string;
  type: string;
  notNull: boolean;
  defaultExpr: string | null;
  /** "a" (ALWAYS) / "d" (BY DEFAULT) identity, else "". */
  identity: string;
  /** "s" for a stored generated column (defaultExpr is its expression), else "". */
  generated: string;
  collation: string | null;
  comment: string;
}

export interface PgIndex {
  name: string;
  unique: boolean;
  primary: boolean;
  definition: string;
  columns: string[];
  /** Created by a PRIMARY KEY, UNIQUE or EXCLUDE constraint. */
  backsConstraint: boolean;
  /** The partition's copy of a partitioned table's index (made by ATTACH PARTITION). */
  partitionChild: boolean;
}

export interface PgConstraint {
  name: string;
  qname: string;
  contype: "p" | "u" | "f" | "c" | "x";
  definition: string;
  /** Made by the parent table's constraint (a partition's copy, or an inherited CHECK). */
  inherited: boolean;
}

export interface PgView {
  oid: number;
  schema: string;
  name: string;
  qname: string;
  materialized: boolean;
  definition: string;
  comment: string;
  /** Oids of the views and tables this view reads. */
  dependsOn: number[];
}

export interface PgFunction {
  schema: string;
  name: string;
  arguments: string;
  definition: string;
}

const NOT_EXTENSION_MEMBER = (alias: string, catalog: string) =>
  `not exists (select 1 from pg_depend e where e.classid = '${catalog}'::regclass and e.objid = ${alias}.oid and e.deptype = 'e')`;

const SCHEMAS = `
  select n.nspname as name, quote_ident(n.nspname) as qname from pg_namespace n
  where n.nspname not in ('pg_catalog', 'information_schema') and n.nspname not like 'pg\\_toast%' and n.nspname not like 'pg\\_temp\\_%'
    and ${NOT_EXTENSION_MEMBER("n", "pg_namespace")}`;

const EXTENSIONS = `
  select quote_ident(e.extname) as qname, quote_ident(n.nspname) as qschema from pg_extension e join pg_namespace n on n.oid = e.extnamespace
  where e.extname <> 'plpgsql'`;

const ENUMS = `
  select n.nspname as schema, t.typname as name, format('%I.%I', n.nspname, t.typname) as qname,
    array(select quote_literal(l.enumlabel) from pg_enum l where l.enumtypid = t.oid order by l.enumsortorder) as labels
  from pg_type t join pg_namespace n on n.oid = t.typnamespace
  where t.typtype = 'e' and n.nspname = any($1) and ${NOT_EXTENSION_MEMBER("t", "pg_type")}`;

const SEQUENCES = `
  select n.nspname as schema, format('%I.%I', n.nspname, c.relname) as qname, format_type(s.seqtypid, null) as type,
    s.seqstart::text as start, s.seqincrement::text as increment, s.seqmin::text as min, s.seqmax::text as max,
    s.seqcache::text as cache, s.seqcycle as cycle,
    (select format('%I.%I.%I', tn.nspname, t.relname, a.attname)
       from pg_depend d join pg_class t on t.oid = d.refobjid join pg_namespace tn on tn.oid = t.relnamespace
       join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
      where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.refclassid = 'pg_class'::regclass and d.deptype = 'a') as "ownedBy"
  from pg_class c join pg_namespace n on n.oid = c.relnamespace join pg_sequence s on s.seqrelid = c.oid
  where c.relkind = 'S' and n.nspname = any($1)
    and not exists (select 1 from pg_depend d where d.classid = 'pg_class'::regclass and d.objid = c.oid and d.deptype in ('i', 'e'))`;

const TABLES = `
  select c.oid::int8 as oid, n.nspname as schema, c.relname as name, format('%I.%I', n.nspname, c.relname) as qname,
    c.relpersistence = 'u' as unlogged, greatest(c.reltuples, 0)::float8 as "rowEstimate",
    coalesce(obj_description(c.oid, 'pg_class'), '') as comment,
    case when c.relkind = 'p' then pg_get_partkeydef(c.oid) end as "partitionKey",
    case when c.relispartition then (select format('%I.%I', pn.nspname, p.relname) from pg_inherits i
      join pg_class p on p.oid = i.inhparent join pg_namespace pn on pn.oid = p.relnamespace where i.inhrelid = c.oid) end as "partitionOf",
    case when c.relispartition then pg_get_expr(c.relpartbound, c.oid) end as "partitionBound"
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('r', 'p') and n.nspname = any($1) and ${NOT_EXTENSION_MEMBER("c", "pg_class")}`;

const COLUMNS = `
  select a.attrelid::int8 as "tableOid", a.attname as name, quote_ident(a.attname) as qname,
    format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as "notNull", pg_get_expr(d.adbin, d.adrelid) as "defaultExpr",
    a.attidentity::text as identity, a.attgenerated::text as generated,
    case when a.attcollation <> t.typcollation then (select format('%I.%I', cn.nspname, co.collname)
      from pg_collation co join pg_namespace cn on cn.oid = co.collnamespace where co.oid = a.attcollation) end as collation,
    coalesce(col_description(a.attrelid, a.attnum), '') as comment
  from pg_attribute a join pg_type t on t.oid = a.atttypid
  left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
  where a.attrelid = any($1::oid[]) and a.attnum > 0 and not a.attisdropped
  order by a.attrelid, a.attnum`;

const INDEXES = `
  select i.indrelid::int8 as "tableOid", c.relname as name, i.indisunique as unique, i.indisprimary as primary,
    pg_get_indexdef(i.indexrelid) as definition,
    array(select pg_get_indexdef(i.indexrelid, k, true) from generate_series(1, i.indnkeyatts) k order by k) as columns,
    exists (select 1 from pg_constraint co where co.conindid = i.indexrelid and co.conrelid = i.indrelid
      and co.contype in ('p', 'u', 'x')) as "backsConstraint",
    c.relispartition as "partitionChild"
  from pg_index i join pg_class c on c.oid = i.indexrelid
  where i.indrelid = any($1::oid[])`;

const CONSTRAINTS = `
  select co.conrelid::int8 as "tableOid", co.conname as name, quote_ident(co.conname) as qname, co.contype::text as contype,
    pg_get_constraintdef(co.oid, true) as definition,
    co.conparentid <> 0 or (co.coninhcount > 0 and not co.conislocal) as inherited
  from pg_constraint co
  where co.conrelid = any($1::oid[]) and co.contype in ('p', 'u', 'f', 'c', 'x')`;

const VIEWS = `
  select c.oid::int8 as oid, n.nspname as schema, c.relname as name, format('%I.%I', n.nspname, c.relname) as qname,
    c.relkind = 'm' as materialized, pg_get_viewdef(c.oid, true) as definition,
    coalesce(obj_description(c.oid, 'pg_class'), '') as comment,
    array(select distinct d.refobjid::int8 from pg_rewrite r join pg_depend d on d.classid = 'pg_rewrite'::regclass and d.objid = r.oid
      where r.ev_class = c.oid and d.refclassid = 'pg_class'::regclass and d.refobjid <> c.oid) as "dependsOn"
  from pg_class c join pg_namespace n on n.oid = c.relnamespace
  where c.relkind in ('v', 'm') and n.nspname = any($1) and ${NOT_EXTENSION_MEMBER("c", "pg_class")}`;

const FUNCTIONS = `
  select n.nspname as schema, p.proname as name, pg_get_function_identity_arguments(p.oid) as arguments,
    pg_get_functiondef(p.oid) as definition
  from pg_proc p join pg_namespace n on n.oid = p.pronamespace
  where p.prokind in ('f', 'p') and n.nspname = any($1) and ${NOT_EXTENSION_MEMBER("p", "pg_proc")}`;

export async function readCatalog(client: pg.Client): Promise<PgCatalog> {
  await client.query("select pg_catalog.set_config('search_path', '', false)");
  const rows = async <T>(text: string, params: unknown[] = []) => (await client.query(text, params)).rows as T[];
  const schemas = await rows<PgSchema>(SCHEMAS);
  const names = [schemas.map((s) => s.name)];
  const tables = (await rows<Omit<PgTable, "columns" | "indexes" | "constraints">>(TABLES, names)).map((t) => ({
    ...t,
    oid: Number(t.oid),
    columns: [] as PgColumn[],
    indexes: [] as PgIndex[],
    constraints: [] as PgConstraint[],
  }));
  const byOid = new Map(tables.map((t) => [t.oid, t]));
  const oids = [tables.map((t) => t.oid)];
  for (const { tableOid, ...column } of await rows<PgColumn & { tableOid: string }>(COLUMNS, oids)) byOid.get(Number(tableOid))?.columns.push(column);
  for (const { tableOid, ...index } of await rows<PgIndex & { tableOid: string }>(INDEXES, oids)) byOid.get(Number(tableOid))?.indexes.push(index);
  for (const { tableOid, ...constraint } of await rows<PgConstraint & { tableOid: string }>(CONSTRAINTS, oids)) {
    byOid.get(Number(tableOid))?.constraints.push(constraint);
  }
  const views = (await rows<PgView>(VIEWS, names)).map((v) => ({ ...v, oid: Number(v.oid), dependsOn: v.dependsOn.map(Number) }));
  return {
    schemas,
    extensions: await rows(EXTENSIONS),
    enums: await rows(ENUMS, names),
    sequences: await rows(SEQUENCES, names),
    tables,
    views,
    functions: await rows(FUNCTIONS, names),
  };
}
