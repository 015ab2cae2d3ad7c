// DatabaseService.GetDatabaseCatalog and UpdateDatabaseCatalog (contract
// §19.2): the columns of a database marked with a semantic type or a
// classification, which the SQL Editor masks. Access is decided below
// (auth CUSTOM): the database's permission or the workspace's masking one.
import { create } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { parseDatabasePartName } from "../../shared/inventory/index.ts";
import { type DatabaseCatalog, DatabaseCatalogSchema } from "../../shared/gen/svc/v1/database_catalog_pb.js";
import type { DatabaseService } from "../../shared/gen/svc/v1/database_service_pb.js";
import type { Db } from "../../shared/platform/index.ts";
import { type CatalogSchema, getDatabaseCatalog, updateDatabaseCatalog } from "../../shared/sql-editor/index.ts";
import { auditScope } from "../transport/audit-scope.ts";
import { callerOf } from "../transport/interceptors/authn.ts";

const PART = "catalog";

export function databaseCatalogHandlers(db: Db): Pick<ServiceImpl<typeof DatabaseService>, "getDatabaseCatalog" | "updateDatabaseCatalog"> {
  return {
    async getDatabaseCatalog(req, context) {
      const ref = parseDatabasePartName(req.name, PART, "name");
      return toCatalog(req.name, await getDatabaseCatalog(db, callerOf(context), ref));
    },
    async updateDatabaseCatalog(req, context) {
      const name = req.catalog?.name ?? "";
      const ref = parseDatabasePartName(name, PART, "catalog.name");
      return toCatalog(name, await updateDatabaseCatalog(auditScope(context).tx, callerOf(context), ref, fromCatalog(req.catalog)));
    },
  };
}

function fromCatalog(catalog: DatabaseCatalog | undefined): CatalogSchema[] {
  return (catalog?.schemas ?? []).map((schema) => ({
    name: schema.name,
    tables: schema.tables.map((table) => ({
      name: table.name,
      columns: table.columns.map((c) => ({ name: c.name, semanticType: c.semanticType, classification: c.classification })),
    })),
  }));
}

function toCatalog(name: string, schemas: readonly CatalogSchema[]): DatabaseCatalog {
  return create(DatabaseCatalogSchema, { name, schemas: schemas as CatalogSchema[] });
}
