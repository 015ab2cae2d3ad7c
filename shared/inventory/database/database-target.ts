// Reaching a live database on its instance: through one of the instance's
// data sources (ADMIN unless asked); a database gone from its instance, or a
// deleted instance, cannot be reached.
import type { CommonQueryMethods } from "slonik";
import type { ConnectionConfig } from "../engine/target.ts";
import type { DataSourceType } from "../instance/data-sources.ts";
import { instanceConnection } from "../instance/instance-target.ts";
import { activeInstance } from "../instance/instances.ts";
import { failedPrecondition, type SecretBox } from "../../platform/index.ts";
import { databaseName, type DatabaseRef } from "./database-name.ts";
import type { DatabaseRow } from "./database.store.ts";
import { getDatabase } from "./databases.ts";

/** How to connect to the database through its instance's data source of the type. */
export async function databaseConnection(db: CommonQueryMethods, secrets: SecretBox, ref: DatabaseRef, type: DataSourceType = "ADMIN"): Promise<ConnectionConfig> {
  await activeDatabase(db, ref);
  return instanceConnection(await activeInstance(db, ref.instanceId), secrets, type);
}

/** The database; not_found when unknown, failed_precondition when it is no longer on its instance. */
export async function activeDatabase(db: CommonQueryMethods, ref: DatabaseRef): Promise<DatabaseRow> {
  const row = await getDatabase(db, ref);
  if (row.state !== "ACTIVE") throw failedPrecondition(`database "${databaseName(ref)}" is deleted: it is no longer on its instance`);
  return row;
}
