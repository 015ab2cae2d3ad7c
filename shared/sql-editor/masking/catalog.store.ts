// The database_catalog table (migration 0027): a database's marked columns as
// one JSON document, replaced whole.
import { type CommonQueryMethods, sql } from "slonik";
import { z } from "zod";
import type { DatabaseRef } from "../../inventory/index.ts";

const columnEntry = z.object({ name: z.string(), semanticType: z.string(), classification: z.string() });
const tableEntry = z.object({ name: z.string(), columns: z.array(columnEntry) });
const schemaEntry = z.object({ name: z.string(), tables: z.array(tableEntry) });

export type CatalogColumn = z.infer<typeof columnEntry>;
export type CatalogTable = z.infer<typeof tableEntry>;
export type CatalogSchema = z.infer<typeof schemaEntry>;

const catalogRow = z.object({ schemas: z.array(schemaEntry) });

/** The database's marked columns by schema and table; [] when none was ever marked. */
export async function findCatalog(db: CommonQueryMethods, ref: DatabaseRef): Promise<CatalogSchema[]> {
  const row = await db.maybeOne(sql.type(catalogRow)`
    select schemas from database_catalog where instance_id = ${ref.instanceId} and database_name = ${ref.name}`);
  return row?.schemas ?? [];
}

/** Replaces the catalog; an empty one leaves no row behind. */
export async function saveCatalog(db: CommonQueryMethods, ref: DatabaseRef, schemas: readonly CatalogSchema[]): Promise<void> {
  if (schemas.length === 0) {
    await db.query(sql.unsafe`delete from database_catalog where instance_id = ${ref.instanceId} and database_name = ${ref.name}`);
    return;
  }
  await db.query(sql.unsafe`
    insert into database_catalog (instance_id, database_name, schemas) values (${ref.instanceId}, ${ref.name}, ${sql.jsonb(schemas as never)})
    on conflict (instance_id, database_name) do update set schemas = excluded.schemas, update_time = now()`);
}
