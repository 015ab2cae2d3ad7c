// instance.sync: syncs one instance's databases and their schema metadata
// (contract §9.3). An unreachable server is recorded on the instance as a
// FAILED sync, so the job itself succeeds.
import type { Task } from "graphile-worker";
import { syncInstance } from "../../shared/inventory/instance/instance-sync.ts";
import { parseJobPayload } from "../../shared/platform/jobs/catalog.ts";
import type { Db } from "../../shared/platform/db.ts";
import type { SecretBox } from "../../shared/platform/secrets/secret-box.ts";

export function syncInstanceTask(db: Db, secrets: SecretBox): Task {
  return async (raw, helpers) => {
    const { instanceId } = parseJobPayload("instance.sync", raw);
    const outcome = await syncInstance(db, secrets, instanceId);
    helpers.logger.info(`sync of instances/${instanceId}: ${outcome}`);
  };
}
