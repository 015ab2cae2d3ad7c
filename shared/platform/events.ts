// The service's events (contract §16.2) and how they travel: a capability
// emits an event in the transaction that makes its change, and every
// subscriber is called in that same transaction, so what it writes (a
// notification's delivery) commits or rolls back with the change. A
// subscriber must only write through `tx` and must not call out of the
// process: an error it throws fails the change. Capabilities type their own
// events (the change pipeline's, the emergency pause, a locked user) over
// this one mechanism.
import type { CommonQueryMethods } from "slonik";

/** An event as the capability that causes it emits it. */
export interface NewDomainEvent {
  /** Its name, e.g. issue.approved. */
  event: string;
  /** The capability that emits it (change, governance, identity). */
  source: string;
  /** users/<login_id> of who caused it, or "system" for the server's own moves. */
  actor: string;
  /** What the event is about (a resource name). */
  resource: string;
  /** A human title: the issue's, the rollout's, or the event's own. */
  title: string;
  /** The issue the event belongs to, when there is one (notifications link to it). */
  issue?: string | undefined;
  /** The event's own facts. */
  detail: object;
}

/** An event as subscribers receive it. */
export type DomainEvent = NewDomainEvent & { time: Date };

export type EventSubscriber = (tx: CommonQueryMethods, event: DomainEvent) => Promise<void>;

const subscribers = new Set<EventSubscriber>();

/** Registers a subscriber for every event; answers the function that removes it. */
export function subscribeToEvents(subscriber: EventSubscriber): () => void {
  subscribers.add(subscriber);
  return () => subscribers.delete(subscriber);
}

/** Calls each subscriber, in the order they registered, within the transaction `tx`. */
export async function emitEvent(tx: CommonQueryMethods, event: NewDomainEvent): Promise<void> {
  if (subscribers.size === 0) return;
  const sent: DomainEvent = { ...event, time: new Date() };
  for (const subscriber of [...subscribers]) await subscriber(tx, sent);
}
