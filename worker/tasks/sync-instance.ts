// instance.sync: syncs one instance's databases and their schema metadata
// (contract §9.3), its lines under the instance's name. An unreachable server
// is recorded on the instance as a FAILED sync, so the job itself succeeds.
import type { Task } from "graphile-worker";
import { instanceName, syncInstance } from "../../shared/inventory/index.ts";
import { type Db, parseJobPayload, type SecretBox, withLogFields } from "../../shared/platform/index.ts";

export function syncInstanceTask(db: Db, secrets: SecretBox): Task {
  return async (raw, helpers) => {
    const { instanceId } = parseJobPayload("instance.sync", raw);
    await withLogFields({ instance: instanceName(instanceId) }, async () => {
      const outcome = await syncInstance(db, secrets, instanceId);
      helpers.logger.info(`sync of ${instanceName(instanceId)}: ${outcome}`);
    });
  };
}
