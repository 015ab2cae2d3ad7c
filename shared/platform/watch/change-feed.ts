// The change notices of change-notice.store.ts, in one API process: one
// dedicated LISTEN connection on their channel (not one per watcher) fans
// each notice out to the subscribers of the resource it names. When the
// connection is lost it is opened again after a second; once it listens
// again every subscriber is called, since a notice may have been missed
// while it was down (contract §12.3, WatchRollout and WatchIssue).
import { listenToChannel } from "../channel-listener.ts";
import type { Logger } from "../logger.ts";
import { CHANGE_CHANNEL } from "./change-notice.store.ts";

export interface ChangeFeed {
  /**
   * Calls `onChange` after every notice naming `name` and after every
   * reconnect of the feed; returns the function that ends the subscription.
   */
  subscribe(name: string, onChange: () => void): () => void;
  /** Subscriptions not yet ended (watch streams in progress). */
  subscriberCount(): number;
  close(): Promise<void>;
}

export function createChangeFeed(url: string, logger: Logger): ChangeFeed {
  const subscribers = new Map<string, Set<() => void>>();
  const notify = (name: string) => {
    for (const onChange of subscribers.get(name) ?? []) onChange();
  };
  const notifyAll = () => {
    for (const name of subscribers.keys()) notify(name);
  };

  const channel = listenToChannel({
    url,
    channel: CHANGE_CHANNEL,
    applicationName: "svc changes",
    logger,
    onNotice: notify,
    onListening: notifyAll, // anything may have changed while nobody listened
    lostMessage: "change notice channel lost; watchers wait for it to be back",
  });

  return {
    subscribe(name, onChange) {
      const forName = subscribers.get(name) ?? new Set();
      subscribers.set(name, forName);
      // A wrapper of its own, so that the same function subscribed twice is two subscriptions.
      const subscription = () => onChange();
      forName.add(subscription);
      return () => {
        forName.delete(subscription);
        if (forName.size === 0 && subscribers.get(name) === forName) subscribers.delete(name);
      };
    },
    subscriberCount() {
      let count = 0;
      for (const forName of subscribers.values()) count += forName.size;
      return count;
    },
    close: () => channel.close(),
  };
}
