// A database's column catalog (contract §19.2): read, and replaced whole after
// every semantic type and classification it names is checked against the
// workspace's schemes. Columns that carry neither are dropped.
import type { CommonQueryMethods } from "slonik";
import { storedSettings } from "../../governance/index.ts";
import { type DatabaseRef, getDatabase } from "../../inventory/index.ts";
import { invalidArgument, quoted } from "../../platform/index.ts";
import { type CatalogSchema, findCatalog, saveCatalog } from "./catalog.store.ts";
import { type MaskingSchemes, readMaskingSchemes } from "./masking-schemes.ts";

export type { CatalogColumn, CatalogSchema, CatalogTable } from "./catalog.store.ts";

export async function getDatabaseCatalog(db: CommonQueryMethods, ref: DatabaseRef): Promise<CatalogSchema[]> {
  await getDatabase(db, ref);
  return findCatalog(db, ref);
}

export async function updateDatabaseCatalog(tx: CommonQueryMethods, ref: DatabaseRef, schemas: readonly CatalogSchema[]): Promise<CatalogSchema[]> {
  await getDatabase(tx, ref);
  const kept = markedOnly(schemas);
  checkCatalog(kept, await readMaskingSchemes(storedSettings(tx)));
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
