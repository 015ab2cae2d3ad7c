// The sql and console figures' target: a database of its own on the bench PostgreSQL
// server holding `rows` rows of six columns (bigint, text, float8,
// timestamptz, boolean, numeric), an instance on that server created through
// the API and synced in this process (no worker runs), and
// WORKSPACE_PROFILE.sql_result_size at its maximum, 1 GiB, so that the XLSX's
// sheet of a million rows fits its bound. Each figure names its own
// instance and database (`use`), so that figures of one run never share them.
import { syncInstance } from "../../shared/inventory/instance/instance-sync.ts";
import { createDb } from "../../shared/platform/db.ts";
import { createSecretBox } from "../../shared/platform/secrets/secret-box.ts";
import { parseSecretKey } from "../../shared/platform/secrets/secret-key.ts";
import { adminQuery, type Api } from "../harness/api-client.ts";
import { stderrLogger } from "../harness/database.ts";
import { note } from "../harness/types.ts";

export const TABLE = "export_rows";

export interface SqlTarget {
  /** instances/<instance>/databases/<database> */
  name: string;
  /** The target database's URL, for the bare baselines. */
  url: string;
  drop(): Promise<void>;
}

export async function createSqlTarget(databaseUrl: string, api: Api, rows: number, use = "sql"): Promise<SqlTarget> {
  const instance = `bench-${use}`;
  const database = `svc_bench_${use}_${process.pid}`;
  const url = new URL(databaseUrl);
  url.pathname = `/${database}`;
  await adminQuery(databaseUrl, `create database ${database}`);
  const drop = () => adminQuery(databaseUrl, `drop database if exists ${database} with (force)`);
  try {
    note(`writing ${rows.toLocaleString("en")} rows × 6 columns into ${database}.${TABLE}`);
    await adminQuery(url.toString(), `create table ${TABLE} as select g::bigint as id, md5(g::text) as name, g * 1.5::float8 as ratio,
      timestamptz '2026-01-01 00:00:00+00' + g * interval '1 second' as at, g % 3 = 0 as flag, (g % 100000) / 100.0 as amount
      from generate_series(1, ${rows}) g`);
    await adminQuery(url.toString(), `vacuum analyze ${TABLE}`);
    await registerInstance(api, databaseUrl, instance);
    await api.call("PATCH", "/v1/settings/WORKSPACE_PROFILE?updateMask=workspaceProfile.sqlResultSize", { value: { workspaceProfile: { sqlResultSize: String(2 ** 30) } } });
  } catch (error) {
    await drop();
    throw error;
  }
  return { name: `instances/${instance}/databases/${database}`, url: url.toString(), drop };
}

async function registerInstance(api: Api, databaseUrl: string, instance: string): Promise<void> {
  const url = new URL(databaseUrl);
  const source = { type: "ADMIN", host: url.hostname, port: url.port || "5432", username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) };
  await api.call("POST", `/v1/instances?instanceId=${instance}`, { engine: "POSTGRES", environment: "environments/test", dataSources: [source] });
  const db = await createDb(databaseUrl, stderrLogger(), { maxPoolSize: 2 });
  try {
    const outcome = await syncInstance(db, createSecretBox(parseSecretKey(process.env.SVC_SECRET_KEY ?? "", "SVC_SECRET_KEY")), instance);
    if (outcome !== "OK") throw new Error(`the sync of instance ${instance} answered ${outcome}`);
  } finally {
    await db.end();
  }
}
