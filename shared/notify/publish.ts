// Turning events into deliveries (contract §16.1): in the transaction of the
// change that emits an event, one delivery row (PENDING) per target of each
// channel, with the notify.deliver jobs of their first attempts (decision
// 0141), so that no event goes without its change and no change without its
// event. A transaction's
// events are turned into deliveries together just before it commits
// (commitBatch): one read of the settings, one of each project's webhooks,
// and one insert for all of them.
// Nothing here leaves the process: the worker sends.
import type { CommonQueryMethods } from "slonik";
import { findSettingRows, readWorkspaceProfile, type SettingReader, storedSettings, withExternalUrlFlag } from "../governance/index.ts";
import { commitBatch, type DomainEvent, subscribeToEvents } from "../platform/index.ts";
import { type Channel, type SharedRead, sharedRead } from "./channel.ts";
import { insertDeliveries, type NewDelivery } from "./delivery.store.ts";
import { emailChannel } from "./email.ts";
import { IM_CHANNELS } from "./im/im-channel.ts";
import { monitoringChannel } from "./monitoring.ts";
import { notificationPayload } from "./payload.ts";
import { projectWebhookChannel } from "./project-webhooks/project-webhook-channel.ts";

export const CHANNELS: readonly Channel[] = [monitoringChannel, projectWebhookChannel, ...IM_CHANNELS, emailChannel];

export interface PublishOptions {
  /** --external-url, which wins over WORKSPACE_PROFILE.external_url in links. */
  externalUrlFlag: string | undefined;
}

/** The settings an event's channels and link read: one round trip of the change's transaction for all of them (decision 0122). */
const EVENT_SETTINGS = ["MONITORING", "APP_IM", "EMAIL", "WORKSPACE_PROFILE"];

/** Who holds the subscription now, each with its options; the latest holder's are used. */
const holders = new Map<symbol, PublishOptions>();
let unsubscribe: (() => void) | undefined;

/**
 * Makes this process turn the events it emits into deliveries, until the
 * returned function is called. Every part of a process that changes things
 * calls it (the API, the worker); a process holding both still subscribes
 * once, with the latest holder's options, and stops when the last lets go.
 */
export function publishNotifications(options: PublishOptions): () => void {
  const holder = Symbol("notification publisher");
  holders.set(holder, options);
  unsubscribe ??= subscribeToEvents((tx, event) => queueDeliveries(tx, { event, options: [...holders.values()].at(-1)! }));
  return () => {
    if (!holders.delete(holder) || holders.size > 0) return;
    unsubscribe?.();
    unsubscribe = undefined;
  };
}

/** An event, with the options of the publisher that heard it. */
interface Heard {
  event: DomainEvent;
  options: PublishOptions;
}

const queueDeliveries = commitBatch<Heard>(async (tx, heard) => {
  const settings = await settingsAsOf(tx);
  const shared = sharedRead();
  const deliveries: NewDelivery[] = [];
  for (const { event, options } of heard) deliveries.push(...(await deliveriesOf(tx, event, settings, shared, options)));
  await insertDeliveries(tx, deliveries);
});

async function deliveriesOf(tx: CommonQueryMethods, event: DomainEvent, settings: SettingReader, shared: SharedRead, options: PublishOptions): Promise<NewDelivery[]> {
  const deliveries: NewDelivery[] = [];
  let payload: Record<string, unknown> | undefined;
  for (const channel of CHANNELS) {
    for (const { target, address } of await channel.targets(tx, event, settings, shared)) {
      payload ??= notificationPayload(event, (await readWorkspaceProfile(withExternalUrlFlag(settings, options.externalUrlFlag))).externalUrl);
      deliveries.push({ channel: channel.name, event: event.event, target, address, payload, eventTime: event.time });
    }
  }
  return deliveries;
}

/** EVENT_SETTINGS as the transaction sees them, read at once; any other from the store. */
async function settingsAsOf(tx: CommonQueryMethods): Promise<SettingReader> {
  const rows = await findSettingRows(tx, EVENT_SETTINGS);
  const stored = storedSettings(tx);
  return { get: async (name) => (EVENT_SETTINGS.includes(name) ? rows.get(name)?.value : stored.get(name)) };
}
