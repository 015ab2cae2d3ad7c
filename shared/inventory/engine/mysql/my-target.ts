// The MySQL/MariaDB target: the Target interface over per-call connections.
import type { DatabaseMetadata } from "../metadata.ts";
import { compareText } from "../ordering.ts";
import { type ConnectionConfig, DEFAULT_EXPLAIN_TIMEOUT_MS, type DryRunOptions, type DryRunProblem, type LostSession, type RowEstimate, type ScriptSession, type ScriptSessionOptions, type Target, type TargetSession } from "../target.ts";
import { readMysqlMetadata } from "./my-catalog.ts";
import { MyConnector } from "./my-connection.ts";
import { mysqlSchemaDdl } from "./my-ddl.ts";
import { mysqlDryRun } from "./my-dry-run.ts";
import { mysqlEndLostSession, mysqlOpenScriptSession } from "./my-execute.ts";
import { mysqlExplainRows } from "./my-explain.ts";
import { serverVersion } from "./my-flavor.ts";

const SYSTEM_SCHEMAS = ["information_schema", "performance_schema", "mysql", "sys"];

export class MysqlTarget implements Target {
  readonly engine = "MYSQL" as const;
  private readonly connector: MyConnector;

  constructor(config: ConnectionConfig) {
    this.connector = new MyConnector(config);
  }

  version(): Promise<string> {
    return this.connector.withConnection(this.connector.config.database, serverVersion);
  }

  listDatabases(): Promise<string[]> {
    return this.connector.withConnection(this.connector.config.database, async (connection) => {
      const [rows] = await connection.query("select schema_name as name from information_schema.schemata where schema_name not in (?)", [SYSTEM_SCHEMAS]);
      return (rows as { name: string }[]).map((r) => r.name).sort(compareText);
    });
  }

  metadata(database: string): Promise<DatabaseMetadata> {
    return this.connector.withConnection(database, (connection) => readMysqlMetadata(connection, database));
  }

  schemaDdl(database: string): Promise<string> {
    return this.connector.withConnection(database, (connection) => mysqlSchemaDdl(connection, database));
  }

  explainRows(database: string, script: string, options: { timeoutMs?: number } = {}): Promise<RowEstimate[]> {
    const timeoutMs = options.timeoutMs ?? DEFAULT_EXPLAIN_TIMEOUT_MS;
    return this.connector.withConnection(database, (connection) => mysqlExplainRows(connection, database, script, timeoutMs));
  }

  dryRun(database: string, script: string, options: DryRunOptions): Promise<DryRunProblem[]> {
    return this.connector.withConnection(database, (connection) => mysqlDryRun(connection, database, script, options.timeoutMs, options.preamble));
  }

  openScriptSession(database: string, options: ScriptSessionOptions): Promise<ScriptSession> {
    return mysqlOpenScriptSession(this.connector, database, options);
  }

  endLostSession(session: TargetSession): Promise<LostSession> {
    return mysqlEndLostSession(this.connector, session);
  }

  close(): Promise<void> {
    return this.connector.close();
  }
}
