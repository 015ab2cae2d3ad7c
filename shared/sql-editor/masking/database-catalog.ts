// A database's column catalog (contract §19.2): read, and replaced whole after
// every semantic type and classification it names is checked against the
// workspace's schemes, and every column against the database's synced schema
// (a column that is not there would mask nothing, silently). Columns that
// carry neither mark are dropped. Access: catalog-access.ts.
import type { CommonQueryMethods } from "slonik";
import { storedSettings } from "../../governance/index.ts";
import type { IamSubject } from "../../identity/index.ts";
import { type DatabaseRef, databaseName, findDatabaseMetadata, getDatabase } from "../../inventory/index.ts";
import { failedPrecondition, invalidArgument, quoted } from "../../platform/index.ts";
import { requireCatalogAccess } from "./catalog-access.ts";
import { type CatalogSchema, findCatalog, saveCatalog } from "./catalog.store.ts";
import { type MaskingSchemes, readMaskingSchemes } from "./masking-schemes.ts";

export type { CatalogColumn, CatalogSchema, CatalogTable } from "./catalog.store.ts";

export async function getDatabaseCatalog(db: CommonQueryMethods, caller: IamSubject, ref: DatabaseRef): Promise<CatalogSchema[]> {
  await requireCatalogAccess(db, caller, ref, "read");
  await getDatabase(db, ref);
  return findCatalog(db, ref);
}

export async function updateDatabaseCatalog(tx: CommonQueryMethods, caller: IamSubject, ref: DatabaseRef, schemas: readonly CatalogSchema[]): Promise<CatalogSchema[]> {
  await requireCatalogAccess(tx, caller, ref, "write");
  const database = await getDatabase(tx, ref);
  const kept = markedOnly(schemas);
  checkCatalog(kept, await readMaskingSchemes(storedSettings(tx)));
  if (kept.length > 0) await checkColumnsExist(tx, ref, kept, database.engine !== "POSTGRES");
  await saveCatalog(tx, ref, kept);
  return kept;
}

function markedOnly(schemas: readonly CatalogSchema[]): CatalogSchema[] {
  return schemas
    .map((schema) => ({
      name: schema.name,
      tables: schema.tables
        .map((table) => ({ name: table.name, columns: table.columns.filter((c) => c.semanticType !== "" || c.classification !== "") }))
        .filter((table) => table.columns.length > 0),
    }))
    .filter((schema) => schema.tables.length > 0);
}

function checkCatalog(schemas: readonly CatalogSchema[], schemes: MaskingSchemes): void {
  const seen = new Set<string>();
  for (const schema of schemas) {
    for (const table of schema.tables) {
      if (table.name === "") throw invalidArgument(`catalog.schemas[${quoted(schema.name)}]: a table needs its name`);
      for (const column of table.columns) {
        const path = `catalog column ${quoted([schema.name, table.name, column.name].filter(Boolean).join("."))}`;
        if (column.name === "") throw invalidArgument(`${path}: a column needs its name`);
        if (seen.has(path)) throw invalidArgument(`${path} is listed twice`);
        seen.add(path);
        if (column.semanticType && !schemes.semanticTypes.has(column.semanticType)) {
          throw invalidArgument(`${path}: semantic type ${quoted(column.semanticType)} is not in SEMANTIC_TYPES`);
        }
        if (column.classification && !schemes.classificationLevels.has(column.classification)) {
          throw invalidArgument(`${path}: classification ${quoted(column.classification)} is not in DATA_CLASSIFICATION`);
        }
      }
    }
  }
}

/**
 * Every marked column must be a column of a table of the last sync's schema;
 * names are compared as the engine does (MySQL: without case). Before the
 * first sync there is nothing to check against: refused, as the database's
 * state is not ready for it (masking already hides every relation of a
 * database never synced).
 */
async function checkColumnsExist(tx: CommonQueryMethods, ref: DatabaseRef, schemas: readonly CatalogSchema[], caseless: boolean): Promise<void> {
  const metadata = await findDatabaseMetadata(tx, ref);
  if (!metadata) {
    throw failedPrecondition(`${databaseName(ref)} has no synced schema yet: sync it (POST /v1/${databaseName(ref)}:sync) before marking its columns`);
  }
  const key = (...parts: string[]) => (caseless ? parts.join(".").toLowerCase() : parts.join("."));
  const known = new Set(metadata.schemas.flatMap((schema) => schema.tables.flatMap((table) => table.columns.map((column) => key(schema.name, table.name, column.name)))));
  for (const schema of schemas) {
    for (const table of schema.tables) {
      for (const column of table.columns) {
        if (known.has(key(schema.name, table.name, column.name))) continue;
        const name = [schema.name, table.name, column.name].filter(Boolean).join(".");
        throw invalidArgument(`catalog column ${quoted(name)} is not a column of a table in the database's synced schema; sync the database if it was added since`);
      }
    }
  }
}
