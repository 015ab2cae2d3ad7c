// How long the delivery log keeps its entries (contract §16.1):
// WORKSPACE_PROFILE.notification_delivery_retention, 30 days by default
// ("0s" keeps them for ever). Only SENT and FAILED deliveries go: a PENDING
// one still has an attempt to make. The leader's hourly clean-up calls it.
import type { CommonQueryMethods } from "slonik";
import { readWorkspaceProfile, type SettingReader } from "../governance/index.ts";
import { deleteBeyondRetention } from "../platform/index.ts";
import { deleteFinishedBefore } from "./delivery.store.ts";

/** Rows per statement, so that no delete holds many locks or runs long. */
const DELETE_BATCH = 5000;

/** Deletes the finished deliveries older than the retention; answers how many went. */
export async function deleteExpiredDeliveries(db: CommonQueryMethods, settings: SettingReader, now = new Date()): Promise<number> {
  const retentionMs = (await readWorkspaceProfile(settings)).notificationDeliveryRetentionMs;
  return deleteBeyondRetention(retentionMs, now, DELETE_BATCH, (cutoff, limit) => deleteFinishedBefore(db, cutoff, limit));
}
