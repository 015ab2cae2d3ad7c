// Queuing instance syncs (contract §9.3): on create, on demand and every 15
// minutes. Each instance has its own job queue, so its syncs never overlap,
// and its own job key, so a sync still waiting is not queued twice.
import type { CommonQueryMethods } from "slonik";
import { addJob } from "../../platform/index.ts";
import { activeInstanceIds } from "./instance.store.ts";

const MAX_ATTEMPTS = 3;

/** Queues a sync of the instance in the caller's transaction. */
export async function enqueueInstanceSync(db: CommonQueryMethods, instanceId: string): Promise<void> {
  const key = `instance.sync:${instanceId}`;
  await addJob(db, "instance.sync", { instanceId }, { jobKey: key, queueName: key, maxAttempts: MAX_ATTEMPTS });
}

/** Queues a sync of every active instance; answers how many. */
export async function enqueueEveryInstanceSync(db: CommonQueryMethods): Promise<number> {
  const ids = await activeInstanceIds(db);
  for (const id of ids) await enqueueInstanceSync(db, id);
  return ids.length;
}
