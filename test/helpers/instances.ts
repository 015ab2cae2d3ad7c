// Fixtures for the instance and database tests: real target servers (the
// tests' own PostgreSQL, and MariaDB/MySQL at 127.0.0.1:3306 when it is
// reachable), throw-away databases on them, and instances created over REST.
import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { createServer } from "node:net";
import mysql from "mysql2/promise";
import type { QueryResult } from "pg";
import { withDatabase } from "../../shared/platform/postgres-url.ts";
import { createSecretBox, type SecretBox } from "../../shared/platform/secrets/secret-box.ts";
import { parseSecretKey } from "../../shared/platform/secrets/secret-key.ts";
import { adminQuery, adminUrl } from "./db.ts";
import type { restClient } from "./rest.ts";
import type { ConnectionConfig } from "../../shared/inventory/engine/target.ts";

type Rest = ReturnType<typeof restClient>;

export const MYSQL = { host: "127.0.0.1", port: 3306, user: "root", password: "" };

/** The secret box the test servers use (test/run.ts shares one key). */
export function testSecrets(): SecretBox {
  return createSecretBox(parseSecretKey(process.env.SVC_SECRET_KEY ?? "", "SVC_SECRET_KEY"));
}

/** Where the tests' PostgreSQL server is, and its account. */
function adminServer(): { host: string; port: number; username: string; password: string } {
  const url = new URL(adminUrl());
  return { host: url.hostname, port: Number(url.port || 5432), username: decodeURIComponent(url.username || "postgres"), password: decodeURIComponent(url.password) };
}

/** The engine connection of the tests' PostgreSQL server itself (no database named, no TLS). */
export function pgServerConnection(): ConnectionConfig {
  return { engine: "POSTGRES", ...adminServer(), database: "", sslMode: "DISABLE", sslCa: "", extraOptions: {} };
}

/** An ADMIN data source on the tests' PostgreSQL server. */
export function pgAdminSource(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  const server = adminServer();
  // Sent whatever the server's authentication, so that its sealing shows.
  return { type: "ADMIN", ...server, password: server.password || "pg-secret-password", ...overrides };
}

export function mysqlAdminSource(): Record<string, unknown> {
  return { type: "ADMIN", host: MYSQL.host, port: MYSQL.port, username: MYSQL.user, password: MYSQL.password };
}

export function uniqueName(prefix: string): string {
  return `${prefix}_${randomBytes(5).toString("hex")}`;
}

/** A new database on the tests' PostgreSQL server. */
export async function createPgTarget(
  statements: string[] = [],
  name = uniqueName("tgt"),
): Promise<{ name: string; query(sql: string): Promise<QueryResult>; drop(): Promise<void> }> {
  await adminQuery(`create database ${name}`);
  const query = (sql: string) => adminQuery(sql, withDatabase(adminUrl(), name));
  for (const statement of statements) await query(statement);
  return { name, query, drop: async () => void (await adminQuery(`drop database if exists ${name} with (force)`)) };
}

/** A connection to MariaDB/MySQL, or undefined when none answers at 127.0.0.1:3306. */
export async function connectMysql(): Promise<mysql.Connection | undefined> {
  try {
    return await mysql.createConnection({ ...MYSQL, connectTimeout: 2_000 });
  } catch {
    return undefined;
  }
}

/** A local port where nothing listens. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise((resolve) => server.close(resolve));
  return typeof address === "object" && address ? address.port : 1;
}

/** Creates an instance over REST and answers it (fails the test otherwise). */
export async function createInstanceOk(rest: Rest, token: string, id: string, instance: Record<string, unknown>): Promise<Record<string, unknown>> {
  const reply = await rest("POST", `/v1/instances?instanceId=${id}`, { token, body: instance });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  return reply.body;
}

export async function eventually(check: () => Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((r) => setTimeout(r, 100));
  }
}
