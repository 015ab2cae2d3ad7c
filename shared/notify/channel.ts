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

/** A read shared by several events or deliveries: the first to ask for `key` reads, the others wait for it. */
export type SharedRead = <T>(key: string, read: () => Promise<T>) => Promise<T>;

export interface SendContext {
  db: CommonQueryMethods;
  /** The settings as stored now, each read at most once for the deliveries one job sends. */
  settings: SettingReader;
  /** Any other read those deliveries share. */
  shared: SharedRead;
  secrets: SecretBox;
  /** --webhook-allow-private. */
  allowPrivate: boolean;
}

export interface Channel {
  /** As the delivery log names it (MONITORING, SLACK, …, EMAIL). */
  name: string;
  /** `settings`: as the transaction sees them, read once for every channel; `shared`: reads shared by the transaction's events (publish.ts). */
  targets(tx: CommonQueryMethods, event: DomainEvent, settings: SettingReader, shared: SharedRead): Promise<ChannelTarget[]>;
  send(delivery: ClaimedDelivery, context: SendContext): Promise<AttemptOutcome>;
}

/** The context of one job's deliveries: each setting, and each shared read, read once for all of them. */
export function sendContext(db: CommonQueryMethods, secrets: SecretBox, allowPrivate: boolean): SendContext {
  const shared = sharedRead();
  const stored = storedSettings(db);
  return { db, settings: { get: (name) => shared(`setting ${name}`, () => stored.get(name)) }, shared, secrets, allowPrivate };
}

/** A fresh SharedRead: what it reads, it keeps for as long as it is held. */
export function sharedRead(): SharedRead {
  const reads = new Map<string, Promise<unknown>>();
  return <T>(key: string, read: () => Promise<T>): Promise<T> => {
    if (!reads.has(key)) reads.set(key, read());
    return reads.get(key) as Promise<T>;
  };
}
