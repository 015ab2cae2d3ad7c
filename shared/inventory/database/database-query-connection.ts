// The SQL Editor's way to a database (contract §14.3): through the data
// source the caller names, else the instance's READ_ONLY one when it has
// one, else ADMIN. A database gone from its instance, or a deleted instance,
// cannot be reached.
import type { CommonQueryMethods } from "slonik";
import type { ConnectionConfig } from "../engine/target.ts";
import { connectionConfig, dataSourceOf, type DataSourceType, type StoredDataSource } from "../instance/data-sources.ts";
import { activeInstance } from "../instance/instances.ts";
import type { InstanceRow } from "../instance/instance.store.ts";
import { invalidArgument, quoted, type SecretBox } from "../../platform/index.ts";
import type { DatabaseRef } from "./database-name.ts";
import type { DatabaseRow } from "./database.store.ts";
import { activeDatabase } from "./database-target.ts";

export interface QueryConnection {
  config: ConnectionConfig;
  /** The data source it goes through. */
  dataSource: { id: string; type: DataSourceType };
  /** The database reached. */
  database: DatabaseRow;
}

/** `dataSourceId` "" picks READ_ONLY when the instance has one, else ADMIN. */
export async function queryConnection(db: CommonQueryMethods, secrets: SecretBox, ref: DatabaseRef, dataSourceId: string): Promise<QueryConnection> {
  const database = await activeDatabase(db, ref);
  const instance = await activeInstance(db, ref.instanceId);
  const source = chosenSource(instance, dataSourceId);
  return { config: connectionConfig(instance.engine, source, secrets), dataSource: { id: source.id, type: source.type }, database };
}

function chosenSource(instance: InstanceRow, dataSourceId: string): StoredDataSource {
  if (dataSourceId === "") return dataSourceOf(instance.dataSources, "READ_ONLY") ?? dataSourceOf(instance.dataSources, "ADMIN")!;
  const source = instance.dataSources.find((s) => s.id === dataSourceId);
  if (!source) {
    const known = instance.dataSources.map((s) => s.id).join(", ");
    throw invalidArgument(`data_source_id: instance "instances/${instance.id}" has no data source ${quoted(dataSourceId)} (it has: ${known})`);
  }
  return source;
}
