// How a task run reaches its target: the instance's ADMIN data source
// (contract §12.4); a deleted instance cannot be reached.
import { type ConnectionConfig, findInstance, instanceConnection, type InstanceRow, type ReachableInstance } from "../../inventory/index.ts";
import { failedPrecondition, type SecretBox } from "../../platform/index.ts";
import type { CommonQueryMethods } from "slonik";

export async function runConnection(db: CommonQueryMethods, secrets: SecretBox, instanceId: string): Promise<ConnectionConfig> {
  const instance = await findInstance(db, instanceId);
  if (!instance) throw failedPrecondition(`instance "instances/${instanceId}" is deleted`);
  return runConnectionOf(instance, secrets);
}

/** The same, for an instance already read (the run's claim reads it). */
export function runConnectionOf(instance: ReachableInstance & Pick<InstanceRow, "state">, secrets: SecretBox): ConnectionConfig {
  if (instance.state !== "ACTIVE") throw failedPrecondition(`instance "instances/${instance.id}" is deleted`);
  return instanceConnection(instance, secrets);
}
