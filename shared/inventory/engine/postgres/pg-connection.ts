// Opens PostgreSQL connections for one target: a fresh client per call,
// connected to the database the call is about, always closed afterwards (and
// all of them by close()); a change script's session is opened ahead of its
// use. Connection failures become clear failed_precondition
// errors; failures of the platform's own queries too.
import pg from "pg";
import type { ConnectionOptions } from "node:tls";
import { queryFailure } from "../connect-failure.ts";
import { connectTimeoutMs, tlsPolicy } from "../connect-options.ts";
import type { ConnectionConfig } from "../target.ts";
import { pgConnectFailure } from "./pg-connect-error.ts";

const APPLICATION_NAME = "change-audit";

export class PgConnector {
  readonly config: ConnectionConfig;
  private readonly timeoutMs: number;
  private readonly clients = new Set<pg.Client>();
  private readonly ending = new Set<Promise<void>>();

  constructor(config: ConnectionConfig) {
    this.config = config;
    this.timeoutMs = connectTimeoutMs(config);
  }

  /** The database a call without one connects to (the data source's, else `postgres`). */
  get defaultDatabase(): string {
    return this.config.database || "postgres";
  }

  async withClient<T>(database: string, work: (client: pg.Client) => Promise<T>): Promise<T> {
    return this.use(database, await this.connect(database), work);
  }

  /**
   * Runs `work` on a client connect() opened, and ends it; failures of its
   * queries become clear errors. With `endLater`, it answers as soon as
   * `work` is done and close() awaits the client's end (the server's backend
   * exiting), so that the caller's next steps overlap it.
   */
  async use<T>(database: string, client: pg.Client, work: (client: pg.Client) => Promise<T>, { endLater = false } = {}): Promise<T> {
    try {
      return await work(client);
    } catch (error) {
      throw queryFailure(this.config, database, error);
    } finally {
      this.clients.delete(client);
      const ended = client.end().catch(() => undefined);
      if (endLater) {
        this.ending.add(ended);
        void ended.then(() => this.ending.delete(ended));
      } else await ended;
    }
  }

  /**
   * A client of the database, ended by use() or by close(); `settings`:
   * session settings given at connection start (numbers, so no quoting),
   * e.g. a run's timeouts.
   */
  async connect(database: string, settings: Record<string, number> = {}): Promise<pg.Client> {
    const options = Object.entries(settings).map(([name, value]) => `-c ${name}=${Math.trunc(value)}`);
    const client = new pg.Client({
      ...(options.length ? { options: options.join(" ") } : {}),
      host: this.config.host,
      port: this.config.port,
      user: this.config.username,
      password: this.config.password,
      database,
      ssl: this.ssl(),
      connectionTimeoutMillis: this.timeoutMs,
      application_name: APPLICATION_NAME,
      keepAlive: true,
    });
    // A server that goes away between queries emits 'error'; the next query reports it.
    client.on("error", () => undefined);
    try {
      await client.connect();
    } catch (error) {
      throw pgConnectFailure(this.config, error, this.timeoutMs);
    }
    this.clients.add(client);
    return client;
  }

  /** Ends every client still open, and waits for those use() ends later. */
  async close(): Promise<void> {
    const clients = [...this.clients];
    this.clients.clear();
    await Promise.all([...clients.map((client) => client.end().catch(() => undefined)), ...this.ending]);
  }

  private ssl(): false | ConnectionOptions {
    const policy = tlsPolicy(this.config);
    if (!policy) return false;
    return {
      ca: policy.ca,
      rejectUnauthorized: policy.verifyChain,
      ...(policy.verifyHost ? {} : { checkServerIdentity: () => undefined }),
    };
  }
}
