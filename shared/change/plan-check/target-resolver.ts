// Where a plan check finds its targets: the database row (engine, effective
// environment, synced metadata) and its instance's ADMIN data source.
import type { CommonQueryMethods } from "slonik";
import { findDatabase, findDatabaseMetadata, findInstance, instanceConnection, parseDatabaseName } from "../../inventory/index.ts";
import { failedPrecondition, type SecretBox } from "../../platform/index.ts";
import type { CheckTarget } from "./check-target.ts";

export function targetResolver(db: CommonQueryMethods, secrets: SecretBox): (name: string) => Promise<CheckTarget> {
  return async (name) => {
    const ref = parseDatabaseName(name, "target");
    const database = await findDatabase(db, ref);
    if (!database || database.state !== "ACTIVE") throw failedPrecondition("the database no longer exists");
    const instance = await findInstance(db, ref.instanceId);
    if (!instance || instance.state !== "ACTIVE") throw failedPrecondition(`instance "instances/${ref.instanceId}" is deleted`);
    return {
      name,
      engine: database.engine,
      database: database.name,
      environmentId: database.environment,
      metadata: await findDatabaseMetadata(db, ref),
      connection: instanceConnection(instance, secrets),
    };
  };
}
