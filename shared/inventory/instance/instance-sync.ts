// Sync (contract §9.3): reads the instance's server through its ADMIN data
// source, makes its databases those the server lists, records each one's
// schema metadata, and the outcome on the instance. A server that cannot be
// reached is recorded as a FAILED sync with the reason; it is never thrown.
import type { CommonQueryMethods } from "slonik";
import type { DatabaseRef } from "../database/database-name.ts";
import { reconcileDatabases, recordDatabaseSync } from "../database/database-sync.store.ts";
import type { Target } from "../engine/target.ts";
import { type Db, type SecretBox, withTransaction } from "../../platform/index.ts";
import { instanceConnection, withTarget } from "./instance-target.ts";
import { findInstance, recordInstanceSync, type InstanceRow } from "./instance.store.ts";

export type SyncOutcome = "OK" | "FAILED" | "SKIPPED";

/** Syncs the instance; SKIPPED when it no longer exists or is deleted (also while it syncs). */
export async function syncInstance(db: Db, secrets: SecretBox, instanceId: string): Promise<SyncOutcome> {
  const instance = await findInstance(db, instanceId);
  if (instance?.state !== "ACTIVE") return "SKIPPED";
  let version: string | undefined;
  try {
    version = await withTarget(instanceConnection(instance, secrets), async (target) => {
      const serverVersion = await target.version();
      const names = await target.listDatabases();
      if (!(await storeDatabaseList(db, instanceId, names))) return undefined;
      for (const name of names) await syncDatabaseWith(db, target, { instanceId, name });
      return serverVersion;
    });
  } catch (error) {
    await recordInstanceSync(db, instanceId, { error: reasonOf(error) });
    return "FAILED";
  }
  if (version === undefined) return "SKIPPED";
  await recordInstanceSync(db, instanceId, { engineVersion: version });
  return "OK";
}

/**
 * Reads one database's metadata from its instance now and records it (or
 * why it could not be read) on the database.
 */
export async function syncOneDatabase(db: CommonQueryMethods, secrets: SecretBox, instance: InstanceRow, name: string): Promise<void> {
  const ref = { instanceId: instance.id, name };
  try {
    await withTarget(instanceConnection(instance, secrets), (target) => syncDatabaseWith(db, target, ref));
  } catch (error) {
    await recordDatabaseSync(db, ref, { error: reasonOf(error) });
  }
}

/** Stores the list under the instance's row lock; false when the instance was deleted meanwhile. */
async function storeDatabaseList(db: Db, instanceId: string, names: readonly string[]): Promise<boolean> {
  return withTransaction(db, async (tx) => {
    if ((await findInstance(tx, instanceId, true))?.state !== "ACTIVE") return false;
    await reconcileDatabases(tx, instanceId, names);
    return true;
  });
}

async function syncDatabaseWith(db: CommonQueryMethods, target: Target, ref: DatabaseRef): Promise<void> {
  try {
    await recordDatabaseSync(db, ref, { metadata: await target.metadata(ref.name) });
  } catch (error) {
    await recordDatabaseSync(db, ref, { error: reasonOf(error) });
  }
}

function reasonOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
