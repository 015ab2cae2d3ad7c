// The sample databases of the quick start (a newcomer can try a change at
// once): `sample_test` and `sample_prod` inside the embedded PostgreSQL, each
// owned by a role of its own that can connect to nothing else (so each
// sample instance sees exactly its database, and never the service's own).
// Idempotent: run at every embedded start.
import { join } from "node:path";
import pg from "pg";
import { readOrCreatePassword } from "../../platform/index.ts";

/** One sample database per default environment, each with its owner role. */
export const SAMPLE_DATABASES = [
  { environment: "test", database: "sample_test", role: "svc_sample_test" },
  { environment: "prod", database: "sample_prod", role: "svc_sample_prod" },
] as const;

export interface SampleServer {
  host: string;
  port: number;
  /** The password of every sample role. */
  password: string;
}

// A small schema with rows, so that reviews, summaries and dry runs have something to look at.
const SAMPLE_SCHEMA = `
  create table employee (
    id         integer primary key,
    name       text not null,
    email      text not null unique,
    hired_on   date not null default current_date
  );
  comment on table employee is 'People of the sample company';
  create table salary (
    employee_id integer not null references employee (id),
    amount      numeric(10, 2) not null check (amount > 0),
    from_date   date not null,
    primary key (employee_id, from_date)
  );
  create index idx_salary_from_date on salary (from_date);
  insert into employee (id, name, email)
    select n, 'Employee ' || n, 'employee' || n || '@example.com' from generate_series(1, 1000) as n;
  insert into salary (employee_id, amount, from_date)
    select n, 50000 + n, date '2026-01-01' from generate_series(1, 1000) as n;
  analyze;`;

export async function prepareSampleServer(superuserUrl: string, dataDir: string): Promise<SampleServer> {
  const password = await readOrCreatePassword(join(dataDir, "sample-password"));
  const url = new URL(superuserUrl);
  const server = { host: url.hostname, port: Number(url.port), password };
  const admin = new pg.Client({ connectionString: superuserUrl });
  await admin.connect();
  try {
    for (const { database, role } of SAMPLE_DATABASES) {
      const exists = await admin.query("select 1 from pg_roles where rolname = $1", [role]);
      await admin.query(`${exists.rowCount ? "alter" : "create"} role ${role} with login password '${password.replaceAll("'", "''")}'`);
      const found = await admin.query("select 1 from pg_database where datname = $1", [database]);
      if (!found.rowCount) await admin.query(`create database ${database} owner ${role}`);
    }
    // Only owners connect: no sample role reaches another database, the service's own included.
    const all = await admin.query<{ datname: string }>("select datname from pg_database where not datistemplate");
    for (const { datname } of all.rows) await admin.query(`revoke connect on database "${datname.replaceAll('"', '""')}" from public`);
  } finally {
    await admin.end();
  }
  for (const { database, role } of SAMPLE_DATABASES) await fillOnce({ host: server.host, port: server.port, user: role, password, database });
  return server;
}

/** Creates the sample schema in a database that does not have it yet (in one transaction). */
async function fillOnce(connection: pg.ClientConfig): Promise<void> {
  const client = new pg.Client(connection);
  await client.connect();
  try {
    const filled = await client.query("select to_regclass('public.employee') is not null as filled");
    if (!filled.rows[0].filled) await client.query(`begin; ${SAMPLE_SCHEMA} commit;`);
  } finally {
    await client.end();
  }
}
