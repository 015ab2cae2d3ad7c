// A notification's payload (contract §16.2): the event's common fields and a
// deep link on the external URL (--external-url, else
// WORKSPACE_PROFILE.external_url) to the issue the event belongs to, or to
// the resource itself. The same JSON goes to every target of the event.
import type { DomainEvent } from "../platform/index.ts";

export interface NotificationPayload extends Record<string, unknown> {
  event: string;
  /** RFC 3339 UTC. */
  time: string;
  actor: string;
  resource: string;
  title: string;
  link: string;
  detail: object;
}

export function notificationPayload(event: DomainEvent, externalUrl: string): NotificationPayload {
  return {
    event: event.event,
    time: event.time.toISOString(),
    actor: event.actor,
    resource: event.resource,
    title: event.title,
    link: `${externalUrl.replace(/\/+$/, "")}/${event.issue ?? event.resource}`,
    detail: event.detail,
  };
}

/** A URL as the delivery log shows it: no user, password, query or fragment (they may carry credentials). */
export function shownUrl(address: string): string {
  const url = new URL(address);
  return `${url.origin}${url.pathname}`;
}
