// Databases ⇄ svc.v1 Database, and stored schema metadata → DatabaseMetadata.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Database_State, DatabaseMetadataSchema, DatabaseSchema, type Database, type DatabaseMetadata } from "../../shared/gen/svc/v1/database_service_pb.js";
import { Engine, Instance_SyncState } from "../../shared/gen/svc/v1/instance_service_pb.js";
import {
  databaseName,
  type DatabaseRef,
  type DatabaseRow,
  projectName,
  type DatabaseMetadata as StoredMetadata,
} from "../../shared/inventory/index.ts";
import { environmentName } from "../../shared/governance/index.ts";

export function toDatabase(row: DatabaseRow): Database {
  return create(DatabaseSchema, {
    name: databaseName(row),
    project: projectName(row.projectId),
    environment: environmentName(row.environment),
    labels: row.labels,
    state: Database_State[row.state],
    syncState: row.syncState ? Instance_SyncState[row.syncState] : Instance_SyncState.SYNC_STATE_UNSPECIFIED,
    syncError: row.syncError,
    lastSyncTime: row.lastSyncTime && timestampFromDate(row.lastSyncTime),
    schemaVersion: row.schemaVersion,
    engine: Engine[row.engine],
    createTime: timestampFromDate(row.createTime),
    updateTime: timestampFromDate(row.updateTime),
    etag: row.etag,
  });
}

export function toDatabaseMetadata(ref: DatabaseRef, metadata: StoredMetadata): DatabaseMetadata {
  return create(DatabaseMetadataSchema, {
    name: `${databaseName(ref)}/metadata`,
    schemas: metadata.schemas.map((schema) => ({
      name: schema.name,
      tables: schema.tables.map((table) => ({
        name: table.name,
        columns: table.columns.map((column) => ({
          name: column.name,
          type: column.type,
          nullable: column.nullable,
          defaultExpression: column.default,
          comment: column.comment,
        })),
        indexes: table.indexes.map(({ columns, ...index }) => ({ ...index, expressions: columns })),
        constraints: table.constraints,
        rowEstimate: BigInt(Math.round(table.rowEstimate)),
        comment: table.comment,
        engine: table.engine,
      })),
      views: schema.views,
      functions: schema.functions,
    })),
  });
}
