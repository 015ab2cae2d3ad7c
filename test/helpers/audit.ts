// Fixtures for the audit search and export tests: a server with an
// administrator, a workspace member, a read-only auditor and a security
// officer (granted through SetWorkspaceIamPolicy), and audit records written
// straight into the table with chosen times and contents.
import assert from "node:assert/strict";
import { startTestApp, type TestApp } from "./app.ts";
import { adminQuery } from "./db.ts";
import { restClient } from "./rest.ts";
import { signIn, signInFirstAdmin } from "./sessions.ts";
import { ADMIN, makeUser } from "./users.ts";

export type Caller = "admin" | "member" | "auditor" | "officer";

export interface AuditApp {
  app: TestApp;
  rest: ReturnType<typeof restClient>;
  token: Record<Caller, string>;
}

/** One row of audit_log as a test states it; unstated columns take the table's defaults. */
export interface SeedRecord {
  /** RFC 3339; now (as a live call writes it) when left out. */
  create_time?: string;
  actor: string;
  action: string;
  actor_ip?: string;
  user_agent?: string;
  method?: string;
  resource?: string;
  severity?: "INFO" | "WARNING" | "ERROR" | "CRITICAL";
  status_code?: string;
  status_message?: string;
  latency_us?: number;
  correlation_id?: string;
  request?: string;
  response?: string;
  detail?: Record<string, unknown>;
}

const COLUMNS = [
  "create_time", "actor", "actor_ip", "user_agent", "action", "method", "resource", "severity", "status_code", "status_message",
  "latency_us", "correlation_id", "request", "response", "detail",
];

export async function startAuditApp(): Promise<AuditApp> {
  const app = await startTestApp({ bootstrap: ADMIN });
  const rest = restClient(app.baseUrl);
  const admin = await signInFirstAdmin(rest);
  for (const loginId of ["member", "auditor", "officer"]) await makeUser(app.db, loginId);
  const bind = (role: string, loginId: string) => ({ role: `roles/${role}`, members: [`user:login_id=${loginId}`] });
  const policy = await rest("POST", "/v1/workspaces/-:setIamPolicy", {
    token: admin,
    body: {
      policy: {
        bindings: [bind("workspaceAdmin", "admin"), bind("workspaceMember", "member"), bind("readOnlyAuditor", "auditor"), bind("securityOfficer", "officer")],
      },
    },
  });
  assert.equal(policy.status, 200, JSON.stringify(policy.body));
  const token: Record<Caller, string> = {
    admin,
    member: await signIn(rest, "member"),
    auditor: await signIn(rest, "auditor"),
    officer: await signIn(rest, "officer"),
  };
  return { app, rest, token };
}

/** Writes the records as given (times included) and answers their names, in the given order. */
export async function seedRecords(app: TestApp, records: readonly SeedRecord[]): Promise<string[]> {
  const json = JSON.stringify(records).replaceAll("'", "''");
  const columns = COLUMNS.join(", ");
  const result = await adminQuery(
    `with given as (select * from json_populate_recordset(null::audit_log, '${json}') with ordinality)
     insert into audit_log (${columns})
     select ${COLUMNS.map(withDefault).join(", ")} from given order by ordinality
     returning id`,
    app.database.url,
  );
  return result.rows.map((row: { id: string }) => `auditLogs/${row.id}`);
}

/** The column, or the table's default where the record leaves it out. */
function withDefault(column: string): string {
  const defaults: Record<string, string> = {
    create_time: "clock_timestamp()",
    severity: "'INFO'",
    status_code: "'ok'",
    latency_us: "0",
    detail: "'{}'::jsonb",
  };
  if (column === "actor" || column === "action") return column;
  return `coalesce(${column}, ${defaults[column] ?? "''"})`;
}

/** The audit records of an action written after `sinceId`, oldest first. */
export async function recordsSince(app: TestApp, sinceId: number, action: string): Promise<Record<string, unknown>[]> {
  const rows = await adminQuery(`select * from audit_log where id > ${sinceId} and action = '${action}' order by id`, app.database.url);
  return rows.rows as Record<string, unknown>[];
}

export async function lastAuditId(app: TestApp): Promise<number> {
  return Number((await adminQuery(`select coalesce(max(id), 0) as id from audit_log`, app.database.url)).rows[0].id);
}
