// What a notification channel is to the rest of notify: which targets an
// event reaches (decided in the change's transaction, from the settings as
// that transaction sees them) and one attempt at a delivery (in the worker).
// MONITORING is the first; the IM channels and EMAIL take the same shape.
import type { CommonQueryMethods } from "slonik";
import type { SettingReader } from "../governance/index.ts";
import type { DomainEvent, SecretBox } from "../platform/index.ts";
import type { ClaimedDelivery } from "./delivery.store.ts";
import type { AttemptOutcome } from "./retry-policy.ts";

export interface ChannelTarget {
  /** What the delivery log shows. */
  target: string;
  /** Where the worker sends. */
  address: string;
}

export interface SendContext {
  db: CommonQueryMethods;
  secrets: SecretBox;
  /** --webhook-allow-private. */
  allowPrivate: boolean;
}

export interface Channel {
  /** As the delivery log names it (MONITORING, SLACK, …, EMAIL). */
  name: string;
  /** `settings`: as the transaction sees them, read once for every channel (publish.ts). */
  targets(tx: CommonQueryMethods, event: DomainEvent, settings: SettingReader): Promise<ChannelTarget[]>;
  send(delivery: ClaimedDelivery, context: SendContext): Promise<AttemptOutcome>;
}
