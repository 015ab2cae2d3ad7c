// The process's idle PostgreSQL connections to target databases, kept for the
// SQL Editor's next read (docs/decisions/0123): opening one costs a new
// backend on the target, which must also fill its catalog caches before its
// first statement. A connection is kept per target — everything that makes
// it what it is: server, credentials, TLS, options and database — so a
// changed data source or password simply stops matching, and its old
// connections are closed when their idle time runs out. Only a connection
// whose session ended cleanly comes back here, reset (DISCARD ALL: prepared
// statements, session locks, temporary tables, settings) before it waits;
// MySQL sessions are not kept.
import { createHash } from "node:crypto";
import type pg from "pg";
import { connectPostgres, type ConnectionConfig } from "../../inventory/index.ts";

export interface ReadConnectionsOptions {
  /** Idle connections kept per target, at most; more are closed. */
  idlePerTarget: number;
  /** An idle connection is closed after this long. */
  idleMs: number;
}

const DEFAULTS: ReadConnectionsOptions = { idlePerTarget: 4, idleMs: 30_000 };

/** A connection taken from the pool, or newly opened. */
export interface TakenConnection {
  client: pg.Client;
  /** It served an earlier session. */
  reused: boolean;
  /** Resets it and keeps it for the next session (the caller has ended its transaction); closes it when it cannot be kept. */
  giveBack(): Promise<void>;
  /** Closes it: it must not serve again. */
  destroy(): Promise<void>;
}

interface Idle {
  client: pg.Client;
  timer: NodeJS.Timeout;
  onEnd: () => void;
}

export class ReadConnections {
  private readonly options: ReadConnectionsOptions;
  private readonly idle = new Map<string, Idle[]>();
  private closed = false;

  constructor(options: Partial<ReadConnectionsOptions> = {}) {
    this.options = { ...DEFAULTS, ...options };
  }

  /** An idle connection to the same target, else a new one. */
  async take(config: ConnectionConfig, database: string): Promise<TakenConnection> {
    const key = targetKey(config, database);
    const kept = this.idle.get(key)?.at(-1);
    if (kept) {
      this.forget(key, kept);
      return this.taken(key, kept.client, true);
    }
    return this.taken(key, await connectPostgres(config, database), false);
  }

  /** Closes every idle connection; connections in use are closed when given back. */
  async close(): Promise<void> {
    this.closed = true;
    const all = [...this.idle.entries()].flatMap(([key, list]) => list.map((entry) => ({ key, entry })));
    for (const { key, entry } of all) this.forget(key, entry);
    await Promise.all(all.map(({ entry }) => end(entry.client)));
  }

  /** How many connections wait, for tests. */
  get idleCount(): number {
    return [...this.idle.values()].reduce((sum, list) => sum + list.length, 0);
  }

  private taken(key: string, client: pg.Client, reused: boolean): TakenConnection {
    return { client, reused, giveBack: () => this.giveBack(key, client), destroy: () => end(client) };
  }

  private async giveBack(key: string, client: pg.Client): Promise<void> {
    try {
      await client.query("discard all");
    } catch {
      return end(client);
    }
    const list = this.idle.get(key) ?? [];
    if (this.closed || list.length >= this.options.idlePerTarget) return end(client);
    const entry: Idle = { client, timer: setTimeout(() => this.expire(key, entry), this.options.idleMs).unref(), onEnd: () => this.expire(key, entry) };
    client.once("end", entry.onEnd); // the target closed it while it waited
    list.push(entry);
    this.idle.set(key, list);
  }

  private expire(key: string, entry: Idle): void {
    if (!this.forget(key, entry)) return;
    void end(entry.client);
  }

  /** Takes the entry off the idle list; false when it was no longer there. */
  private forget(key: string, entry: Idle): boolean {
    clearTimeout(entry.timer);
    entry.client.off("end", entry.onEnd);
    const list = this.idle.get(key);
    const at = list?.indexOf(entry) ?? -1;
    if (at < 0) return false;
    list!.splice(at, 1);
    if (list!.length === 0) this.idle.delete(key);
    return true;
  }
}

/** What makes a connection what it is; hashed, so that the map holds no password. */
function targetKey(config: ConnectionConfig, database: string): string {
  const options = Object.entries(config.extraOptions).sort(([a], [b]) => a.localeCompare(b));
  const facts = [config.host, config.port, config.username, config.password, config.sslMode, config.sslCa, options, database];
  return createHash("sha256").update(JSON.stringify(facts)).digest("base64url");
}

function end(client: pg.Client): Promise<void> {
  return client.end().catch(() => undefined);
}
