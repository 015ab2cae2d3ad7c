// Connections a caller drives itself, for work that streams a result through
// the driver (the SQL Editor): opened like the engine's own — the data
// source's TLS, connect timeout and application name, the same clear
// failed_precondition when they cannot be opened — and ended by the caller.
import type pg from "pg";
import type { Connection } from "mysql2/promise";
import { type DriverOptions, MyConnector } from "./mysql/my-connection.ts";
import { PgConnector } from "./postgres/pg-connection.ts";
import type { ConnectionConfig } from "./target.ts";

export function connectPostgres(config: ConnectionConfig, database: string): Promise<pg.Client> {
  return new PgConnector(config).connect(database);
}

/** `driver`: how values are read (e.g. JSON as text); the connection never runs several statements at once. */
export function connectMysql(config: ConnectionConfig, database: string, driver: DriverOptions = {}): Promise<Connection> {
  return new MyConnector(config).connect(database, driver);
}

export type { DriverOptions as MysqlDriverOptions };
