// The inventory capability's public surface: what other capabilities and the
// processes use. Everything else under shared/inventory/ is private to it.
export { accessScope } from "./access-scope.ts";
export { listDatabasePage } from "./database/database-list.ts";
export { databaseName, type DatabaseRef, parseDatabaseName } from "./database/database-name.ts";
export { ownershipOfDatabases } from "./database/database-project.store.ts";
export { parseDatabasePartName, readDatabaseMetadata, readDatabaseSchema, syncDatabase } from "./database/database-schema.ts";
export { type QueryConnection, queryConnection } from "./database/database-query-connection.ts";
export { type DatabaseRow, findDatabase, findDatabaseMetadata } from "./database/database.store.ts";
export { databaseConnection } from "./database/database-target.ts";
export { getDatabase, transferDatabases, updateDatabase } from "./database/databases.ts";
export { errorMessage } from "./engine/connect-failure.ts";
export { connectMysql, connectPostgres, type MysqlDriverOptions } from "./engine/driver-connections.ts";
export type { DatabaseMetadata, TableMetadata } from "./engine/metadata.ts";
export { tokenize as mysqlTokens } from "./engine/mysql/my-tokens.ts";
export { splitStatements, type SqlStatement } from "./engine/split.ts";
export { openTarget } from "./engine/target-open.ts";
export type {
  ConnectionConfig,
  Engine,
  ExecuteOutcome,
  ExecuteRequest,
  LostSession,
  RowEstimate,
  ScriptSession,
  SslMode,
  StatementLog,
  Target,
  TargetSession,
} from "./engine/target.ts";
export { type DataSourceDraft, type DataSourceType, storedDataSource, type StoredDataSource } from "./instance/data-sources.ts";
export { listInstancePage } from "./instance/instance-list.ts";
export { enqueueEveryInstanceSync } from "./instance/instance-sync-jobs.ts";
export { syncInstance } from "./instance/instance-sync.ts";
export { instanceConnection, type ReachableInstance, withTarget } from "./instance/instance-target.ts";
export { findInstance, type InstanceRow } from "./instance/instance.store.ts";
export {
  createInstance,
  deleteInstance,
  getInstance,
  type InstanceDraft,
  instanceName,
  parseInstanceName,
  requestInstanceSync,
  undeleteInstance,
  updateInstance,
} from "./instance/instances.ts";
export type { ProjectDraft } from "./project/project-fields.ts";
export { listProjectPage } from "./project/project-list.ts";
export { findProject, type ProjectRow } from "./project/project.store.ts";
export {
  activeProject,
  createProject,
  deleteProject,
  getProject,
  parseProjectName,
  projectName,
  undeleteProject,
  updateProject,
} from "./project/projects.ts";
export { seedQuickStart } from "./sample/sample.ts";
export { inventorySettingRules } from "./setting-rules.ts";
