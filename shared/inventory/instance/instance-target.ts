// Reaching an instance's server: its data sources as connection configs, a
// target opened and always closed, and the connection test of create and
// update (contract §9.3).
import { openTarget } from "../engine/target-open.ts";
import type { ConnectionConfig, Engine, Target } from "../engine/target.ts";
import { DomainError, failedPrecondition, type SecretBox } from "../../platform/index.ts";
import { connectionConfig, dataSourceOf, type DataSourceType, type StoredDataSource } from "./data-sources.ts";
import type { InstanceRow } from "./instance.store.ts";

/** Runs `use` on a target opened with the config, and closes it whatever happens. */
export async function withTarget<T>(config: ConnectionConfig, use: (target: Target) => Promise<T>): Promise<T> {
  const target = openTarget(config);
  try {
    return await use(target);
  } finally {
    await target.close();
  }
}

/** What reaching an instance needs of it. */
export type ReachableInstance = Pick<InstanceRow, "id" | "engine" | "dataSources">;

/** How to connect to the instance through its data source of the type (ADMIN unless asked). */
export function instanceConnection(instance: ReachableInstance, secrets: SecretBox, type: DataSourceType = "ADMIN"): ConnectionConfig {
  const source = dataSourceOf(instance.dataSources, type);
  if (!source) throw failedPrecondition(`instance "instances/${instance.id}" has no ${type} data source`);
  return connectionConfig(instance.engine, source, secrets);
}

/**
 * Connects through every data source and answers the server's version (read
 * through the ADMIN one). A problem → failed_precondition naming the data
 * source, host and port.
 */
export async function testDataSources(engine: Engine, sources: readonly StoredDataSource[], secrets: SecretBox): Promise<string> {
  let version = "";
  for (const [i, source] of sources.entries()) {
    try {
      const read = await withTarget(connectionConfig(engine, source, secrets), (target) => target.version());
      if (source.type === "ADMIN") version = read;
    } catch (error) {
      const where = `instance.data_sources[${i}] ("${source.id}")`;
      if (error instanceof DomainError) throw new DomainError(error.code, `${where}: ${error.message}`, { details: error.details, cause: error });
      throw failedPrecondition(`${where}: cannot connect to ${source.host}:${source.port}`, { cause: error });
    }
  }
  return version;
}
