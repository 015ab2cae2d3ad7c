// The PostgreSQL target: the Target interface over per-call connections.
import { type ConnectionConfig, DEFAULT_EXPLAIN_TIMEOUT_MS, type DryRunOptions, type DryRunProblem, type LostSession, type RowEstimate, type ScriptSession, type ScriptSessionOptions, type Target, type TargetSession } from "../target.ts";
import type { DatabaseMetadata } from "../metadata.ts";
import { compareText } from "../ordering.ts";
import { readCatalog } from "./pg-catalog.ts";
import { PgConnector } from "./pg-connection.ts";
import { renderDdl } from "./pg-ddl.ts";
import { pgDryRun } from "./pg-dry-run.ts";
import { pgEndLostSession, pgOpenScriptSession } from "./pg-execute.ts";
import { pgExplainRows } from "./pg-explain.ts";
import { toMetadata } from "./pg-metadata.ts";

// Only the databases the data source's user may connect to: the others cannot be synced or changed through it.
const LIST_DATABASES = "select datname from pg_database where not datistemplate and datallowconn and has_database_privilege(datname, 'CONNECT')";

export class PostgresTarget implements Target {
  readonly engine = "POSTGRES" as const;
  private readonly connector: PgConnector;

  constructor(config: ConnectionConfig) {
    this.connector = new PgConnector(config);
  }

  version(): Promise<string> {
    return this.connector.withClient(this.connector.defaultDatabase, async (client) => {
      return String((await client.query("show server_version")).rows[0].server_version);
    });
  }

  listDatabases(): Promise<string[]> {
    return this.connector.withClient(this.connector.defaultDatabase, async (client) => {
      return (await client.query(LIST_DATABASES)).rows.map((r: { datname: string }) => r.datname).sort(compareText);
    });
  }

  metadata(database: string): Promise<DatabaseMetadata> {
    return this.connector.withClient(database, async (client) => toMetadata(await readCatalog(client)));
  }

  schemaDdl(database: string): Promise<string> {
    return this.connector.withClient(database, async (client) => renderDdl(await readCatalog(client)));
  }

  explainRows(database: string, script: string, options: { timeoutMs?: number } = {}): Promise<RowEstimate[]> {
    return this.connector.withClient(database, (client) => pgExplainRows(client, script, options.timeoutMs ?? DEFAULT_EXPLAIN_TIMEOUT_MS));
  }

  dryRun(database: string, script: string, options: DryRunOptions): Promise<DryRunProblem[]> {
    return this.connector.withClient(database, (client) => pgDryRun(client, script, options.timeoutMs, options.preamble));
  }

  openScriptSession(database: string, options: ScriptSessionOptions): Promise<ScriptSession> {
    return pgOpenScriptSession(this.connector, database, options);
  }

  endLostSession(session: TargetSession): Promise<LostSession> {
    return pgEndLostSession(this.connector, session);
  }

  close(): Promise<void> {
    return this.connector.close();
  }
}
