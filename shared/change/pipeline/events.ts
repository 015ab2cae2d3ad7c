// The events of the change pipeline (contract §16.2), typed over the
// platform's events (shared/platform/events.ts): each transition that other
// capabilities may react to emits its event in the transaction that makes
// the change, and every subscriber is called in that same transaction.
import type { CommonQueryMethods } from "slonik";
import { emitEvent, subscribeToEvents } from "../../platform/index.ts";

/** Each event's facts beside the common fields. */
export interface PipelineEventDetails {
  "issue.created": { plan: string };
  /** The step whose role holders are asked, 0-based, and its roles. */
  "issue.approvalRequested": { step: number; roles: string[] };
  "issue.approved": { step: number };
  "issue.rejected": { step: number; comment: string };
  /** The comment's name. */
  "issue.commented": { comment: string };
  /** The stage's environment (environments/<id>, or environments/- for targets without one). */
  "rollout.stageStarted": { environment: string };
  "taskRun.failed": { error: string; detail: string };
  "rollout.done": Record<string, never>;
  "rollout.failed": Record<string, never>;
}

export type PipelineEventName = keyof PipelineEventDetails;

// Every pipeline event once, checked against the details above by the compiler.
const EVENT_NAMES: Record<PipelineEventName, true> = {
  "issue.created": true,
  "issue.approvalRequested": true,
  "issue.approved": true,
  "issue.rejected": true,
  "issue.commented": true,
  "rollout.stageStarted": true,
  "taskRun.failed": true,
  "rollout.done": true,
  "rollout.failed": true,
};

/** The names of the pipeline's events: those that belong to a project. */
export const PIPELINE_EVENTS = Object.keys(EVENT_NAMES) as readonly PipelineEventName[];

interface EventBase<Name extends PipelineEventName> {
  event: Name;
  /** users/<login_id> of who caused it, or "system" for the server's own moves. */
  actor: string;
  /** What the event is about: the issue, the stage, the task run or the rollout. */
  resource: string;
  /** The title of the issue (issue events) or of the rollout. */
  title: string;
  /** The issue the event belongs to; undefined for a rollout made without one. */
  issue: string | undefined;
  detail: PipelineEventDetails[Name];
}

/** An event as a transition emits it. */
export type NewPipelineEvent = { [Name in PipelineEventName]: EventBase<Name> }[PipelineEventName];

/** An event as subscribers receive it. */
export type PipelineEvent = NewPipelineEvent & { time: Date };

/** The events' source: the change capability. */
const SOURCE = "change";

export type PipelineSubscriber = (tx: CommonQueryMethods, event: PipelineEvent) => Promise<void>;

/** Registers a subscriber for every pipeline event; answers the function that removes it. */
export function subscribeToPipeline(subscriber: PipelineSubscriber): () => void {
  return subscribeToEvents(async (tx, event) => {
    if (event.source === SOURCE) await subscriber(tx, event as PipelineEvent);
  });
}

/** Emits a pipeline event within the transaction `tx`. */
export async function emit(tx: CommonQueryMethods, event: NewPipelineEvent): Promise<void> {
  await emitEvent(tx, { ...event, source: SOURCE });
}
