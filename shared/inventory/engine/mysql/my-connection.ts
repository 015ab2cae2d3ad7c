// Opens MySQL/MariaDB connections for one target: a fresh connection per call,
// with the call's database as the default schema, always closed afterwards
// (and all of them by close()); a change script's session is opened ahead
// of its use. Connection failures become clear
// failed_precondition errors; failures of the platform's own queries too.
import mysql, { type Connection, type ConnectionOptions, type SslOptions } from "mysql2/promise";
import { queryFailure } from "../connect-failure.ts";
import { connectTimeoutMs, tlsPolicy } from "../connect-options.ts";
import type { ConnectionConfig } from "../target.ts";
import { myConnectFailure } from "./my-connect-error.ts";

/** Driver options a caller may add: how values are read, not where or how to connect. */
export type DriverOptions = Pick<ConnectionOptions, "jsonStrings" | "bigNumberStrings" | "decimalNumbers">;

export class MyConnector {
  readonly config: ConnectionConfig;
  private readonly timeoutMs: number;
  private readonly connections = new Set<Connection>();

  constructor(config: ConnectionConfig) {
    this.config = config;
    this.timeoutMs = connectTimeoutMs(config);
  }

  /** `database` "" connects without a default schema. */
  async withConnection<T>(database: string, work: (connection: Connection) => Promise<T>): Promise<T> {
    return this.use(database, await this.connect(database), work);
  }

  /** Runs `work` on a connection connect() opened, and ends it; failures of its queries become clear errors. */
  async use<T>(database: string, connection: Connection, work: (connection: Connection) => Promise<T>): Promise<T> {
    try {
      return await work(connection);
    } catch (error) {
      throw queryFailure(this.config, database, error);
    } finally {
      this.connections.delete(connection);
      await connection.end().catch(() => connection.destroy());
    }
  }

  async close(): Promise<void> {
    const connections = [...this.connections];
    this.connections.clear();
    for (const connection of connections) connection.destroy();
  }

  /** A connection with `database` as its default schema, ended by use() or by close(); `driver` adds to the driver's options. */
  async connect(database: string, driver: DriverOptions = {}): Promise<Connection> {
    let connection: Connection;
    try {
      connection = await mysql.createConnection({
        host: this.config.host,
        port: this.config.port,
        user: this.config.username,
        password: this.config.password,
        database: database || undefined,
        connectTimeout: this.timeoutMs,
        ssl: this.ssl(),
        multipleStatements: false,
        supportBigNumbers: true,
        dateStrings: true,
        ...driver,
      });
    } catch (error) {
      throw myConnectFailure(this.config, error, this.timeoutMs);
    }
    // A server that goes away between queries emits 'error'; the next query reports it.
    connection.on("error", () => undefined);
    this.connections.add(connection);
    return connection;
  }

  private ssl(): (SslOptions & { verifyIdentity?: boolean }) | undefined {
    const policy = tlsPolicy(this.config);
    if (!policy) return undefined;
    return { ca: policy.ca, rejectUnauthorized: policy.verifyChain, verifyIdentity: policy.verifyHost };
  }
}
