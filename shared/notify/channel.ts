// What a notification channel is to the rest of notify: which targets an
// event reaches (decided in the change's transaction, from the settings as
// that transaction sees them) and one attempt at a delivery (in the worker,
// among the others of its job, sharing their reads).
// MONITORING is the first; the IM channels and EMAIL take the same shape.
import type { CommonQueryMethods } from "slonik";
import { type SettingReader, storedSettings } from "../governance/index.ts";
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
  /** The settings as stored now, each read at most once for the deliveries one job sends. */
  settings: SettingReader;
  /** Any other read those deliveries share: the first to ask for `key` reads, the others wait for it. */
  shared<T>(key: string, read: () => Promise<T>): Promise<T>;
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

/** The context of one job's deliveries: each setting, and each shared read, read once for all of them. */
export function sendContext(db: CommonQueryMethods, secrets: SecretBox, allowPrivate: boolean): SendContext {
  const reads = new Map<string, Promise<unknown>>();
  const shared = <T>(key: string, read: () => Promise<T>): Promise<T> => {
    if (!reads.has(key)) reads.set(key, read());
    return reads.get(key) as Promise<T>;
  };
  const stored = storedSettings(db);
  return { db, settings: { get: (name) => shared(`setting ${name}`, () => stored.get(name)) }, shared, secrets, allowPrivate };
}
