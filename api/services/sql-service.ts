// SQLService (contract §14, §19.1): the SQL Editor's reads (Query, Explain,
// Export), its write path (Execute) and the query history, each group in its
// module.
import type { SettingReader } from "../../shared/governance/index.ts";
import { SQLService } from "../../shared/gen/svc/v1/sql_service_pb.js";
import type { IamReads } from "../../shared/identity/index.ts";
import type { Db, SecretBox } from "../../shared/platform/index.ts";
import type { ReadConnections } from "../../shared/sql-editor/index.ts";
import { registration } from "../transport/services.ts";
import { sqlExecuteHandlers } from "./sql-execute-service.ts";
import { sqlExportHandlers } from "./sql-export-service.ts";
import { sqlHistoryHandlers } from "./sql-history-service.ts";
import { sqlQueryHandlers } from "./sql-query-service.ts";

export interface SqlDeps {
  db: Db;
  iam: IamReads;
  settings: SettingReader;
  secrets: SecretBox;
  /** The process's PostgreSQL connections kept between reads. */
  connections: ReadConnections;
}

export function sqlService(deps: SqlDeps) {
  return registration(SQLService, {
    ...sqlQueryHandlers(deps),
    ...sqlExportHandlers(deps),
    ...sqlExecuteHandlers(deps),
    ...sqlHistoryHandlers(deps),
  });
}
