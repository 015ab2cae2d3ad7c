// DatabaseService: databases, their schema and their moves between projects
// (contract §9.5).
import {
  databaseName,
  getDatabase,
  listDatabasePage,
  parseDatabaseName,
  parseDatabasePartName,
  projectName,
  readDatabaseMetadata,
  readDatabaseSchema,
  syncDatabase,
  transferDatabases,
  updateDatabase,
} from "../../shared/inventory/index.ts";
import { DatabaseService } from "../../shared/gen/svc/v1/database_service_pb.js";
import type { Db, SecretBox } from "../../shared/platform/index.ts";
import { auditScope } from "../transport/audit-scope.ts";
import { callerOf } from "../transport/interceptors/authn.ts";
import { registration } from "../transport/services.ts";
import { databaseCatalogHandlers } from "./database-catalog-service.ts";
import { toDatabase, toDatabaseMetadata } from "./database-convert.ts";

export interface DatabaseDeps {
  db: Db;
  /** Opens data-source passwords to reach the instances. */
  secrets: SecretBox;
}

export function databaseService(deps: DatabaseDeps) {
  return registration(DatabaseService, {
    async getDatabase(req) {
      return toDatabase(await getDatabase(deps.db, parseDatabaseName(req.name, "name")));
    },
    async listDatabases(req) {
      const page = await listDatabasePage(deps.db, req);
      return { databases: page.rows.map(toDatabase), nextPageToken: page.nextPageToken };
    },
    async updateDatabase(req, context) {
      const database = req.database;
      const row = await updateDatabase(auditScope(context).tx, callerOf(context), {
        ref: parseDatabaseName(database?.name ?? "", "database.name"),
        paths: req.updateMask?.paths ?? [],
        etag: database?.etag ?? "",
        labels: database?.labels ?? {},
        environment: database?.environment.trim() ?? "",
        project: database?.project.trim() ?? "",
      });
      return toDatabase(row);
    },
    async transferDatabases(req, context) {
      const audit = auditScope(context);
      if (req.targetProject) audit.resource = req.targetProject;
      const moved = await transferDatabases(audit.tx, callerOf(context), req.databases, req.targetProject);
      audit.detail = { moved: moved.map((m) => ({ database: databaseName(m.row), from: projectName(m.fromProjectId) })) };
      return { databases: moved.map((m) => toDatabase(m.row)) };
    },
    async getDatabaseSchema(req) {
      return { schema: await readDatabaseSchema(deps.db, deps.secrets, parseDatabasePartName(req.name, "schema", "name")) };
    },
    async getDatabaseMetadata(req) {
      const ref = parseDatabasePartName(req.name, "metadata", "name");
      return toDatabaseMetadata(ref, await readDatabaseMetadata(deps.db, ref));
    },
    async syncDatabase(req, context) {
      return toDatabase(await syncDatabase(auditScope(context).tx, deps.secrets, parseDatabaseName(req.name, "name")));
    },
    ...databaseCatalogHandlers(deps.db),
  });
}
