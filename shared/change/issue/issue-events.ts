// System events in an issue's history (contract §11.1): approvals,
// rejections, status changes, and the rollout's progress (stage started,
// task failed, ...) are EVENT entries beside people's comments, so the
// issue's history reads as one list. Watchers hear of each entry.
import type { CommonQueryMethods } from "slonik";
import { commitBatch, noticeChange } from "../../platform/index.ts";
import { insertComments, type NewComment } from "./issue-comment.store.ts";
import { issueName, type IssueRef } from "./issue-names.ts";

/** An event: its kind (APPROVED, STAGE_STARTED, ...) and its facts, JSON values. */
export interface IssueEvent {
  kind: string;
  [fact: string]: unknown;
}

/**
 * Records the event in the issue's history; `creator` is who caused it
 * (users/<id>, or "system"). A transaction's events are written together,
 * in the order they came, just before it commits (commitBatch).
 */
export async function addIssueEvent(tx: CommonQueryMethods, ref: IssueRef, event: IssueEvent, creator: string, comment = ""): Promise<void> {
  await writeEvents(tx, { ref, type: "EVENT", comment, event, creator });
  await noticeChange(tx, issueName(ref));
}

const writeEvents = commitBatch<NewComment & { ref: IssueRef }>(insertComments);
