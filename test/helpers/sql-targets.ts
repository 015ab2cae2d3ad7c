// Fixtures for the SQL Editor's read tests: a running server, a PostgreSQL
// target database and (when MariaDB/MySQL answers at 127.0.0.1:3306) a MySQL
// one, each an instance whose ADMIN data source goes through a counting TCP
// proxy, so a test can tell that nothing reached the target; and the calls.
import assert from "node:assert/strict";
import { createServer, type Server, type Socket, connect } from "node:net";
import mysql from "mysql2/promise";
import { syncInstance } from "../../shared/inventory/instance/instance-sync.ts";
import { startTestApp, type TestApp } from "./app.ts";
import { connectMysql, createInstanceOk, createPgTarget, MYSQL, mysqlAdminSource, pgAdminSource, testSecrets, uniqueName } from "./instances.ts";
import { restClient } from "./rest.ts";
import { signInFirstAdmin } from "./sessions.ts";
import { ADMIN } from "./users.ts";

type Json = Record<string, any>;

/** A TCP proxy to a server, counting the connections made through it. */
export interface CountingProxy {
  port: number;
  connections: number;
  close(): Promise<void>;
}

export async function countingProxy(targetPort: number): Promise<CountingProxy> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    proxy.connections++;
    const upstream = connect(targetPort, "127.0.0.1");
    for (const socket of [client, upstream]) {
      sockets.add(socket);
      socket.on("error", () => undefined).on("close", () => sockets.delete(socket));
    }
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  const proxy: CountingProxy = {
    port: typeof address === "object" && address ? address.port : 0,
    connections: 0,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
  return proxy;
}

export interface SqlTargets {
  app: TestApp;
  rest: ReturnType<typeof restClient>;
  admin: string;
  pg: { name: string; database: string; proxy: CountingProxy; query(sql: string): Promise<Json[]> };
  /** Undefined when no MySQL answers. */
  my: { name: string; database: string; proxy: CountingProxy; query(sql: string): Promise<Json[]> } | undefined;
  /** POST /v1/sql:query (or :explain) as the token. */
  call(verb: "query" | "explain", body: Json, token?: string, signal?: AbortSignal): Promise<{ status: number; body: Json }>;
  close(): Promise<void>;
}

/** Starts the server (with `flags`) and the targets; `pgSetup` and `mySetup` are run on the new databases first. */
export async function startSqlTargets(pgSetup: string[], mySetup: (database: string) => string[], flags: string[] = []): Promise<SqlTargets> {
  const app = await startTestApp({ bootstrap: ADMIN, flags });
  const rest = restClient(app.baseUrl);
  const admin = await signInFirstAdmin(rest);
  const pgTarget = await createPgTarget(pgSetup);
  const pgProxy = await countingProxy(Number(pgAdminSource().port));
  const instanceId = uniqueName("pg").replaceAll("_", "-");
  await createInstanceOk(rest, admin, instanceId, { engine: "POSTGRES", environment: "environments/test", dataSources: [pgAdminSource({ port: pgProxy.port })] });
  assert.equal(await syncInstance(app.db, testSecrets(), instanceId), "OK");
  const pg = { name: `instances/${instanceId}/databases/${pgTarget.name}`, database: pgTarget.name, proxy: pgProxy, query: async (sql: string) => (await pgTarget.query(sql)).rows as Json[] };
  const my = await startMysqlTarget(app, rest, admin, mySetup);
  const call = (verb: "query" | "explain", body: Json, token = admin, signal?: AbortSignal) => rest<Json>("POST", `/v1/sql:${verb}`, { token, body, signal });
  const close = async () => {
    await app.close();
    await pgTarget.drop();
    await pgProxy.close();
    await my?.close();
  };
  return { app, rest, admin, pg, my, call, close };
}

async function startMysqlTarget(app: TestApp, rest: ReturnType<typeof restClient>, admin: string, setup: (database: string) => string[]) {
  const probe = await connectMysql();
  if (!probe) return undefined;
  await probe.end();
  const database = uniqueName("sqlq");
  const connection = await mysql.createConnection({ ...MYSQL, multipleStatements: true });
  await connection.query(`create database ${database}; use ${database}`);
  for (const statement of setup(database)) await connection.query(statement);
  const proxy = await countingProxy(MYSQL.port);
  const instanceId = uniqueName("my").replaceAll("_", "-");
  await createInstanceOk(rest, admin, instanceId, { engine: "MYSQL", environment: "environments/test", dataSources: [{ ...mysqlAdminSource(), port: proxy.port }] });
  assert.equal(await syncInstance(app.db, testSecrets(), instanceId), "OK");
  return {
    name: `instances/${instanceId}/databases/${database}`,
    database,
    proxy,
    query: async (sql: string) => (await connection.query(sql))[0] as Json[],
    close: async () => {
      await connection.query(`drop database if exists ${database}`);
      await connection.end();
      await proxy.close();
    },
  };
}
