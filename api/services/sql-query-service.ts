// SQLService.Query and Explain (contract §14.1–§14.4): reads on a database in
// a read-only session, cancelled when the client goes away, masked below
// (shared/sql-editor: no handler can leave masking out). Explain with
// `analyze` runs the statement, so it also needs bb.sql.select on the
// database's project, checked here beside the method's bb.sql.explain.
import type { ServiceImpl } from "@connectrpc/connect";
import type { SettingReader } from "../../shared/governance/index.ts";
import { type IamReads, requirePermission } from "../../shared/identity/index.ts";
import { accessScope } from "../../shared/inventory/index.ts";
import type { Db, SecretBox } from "../../shared/platform/index.ts";
import type { SQLService } from "../../shared/gen/svc/v1/sql_service_pb.js";
import { explainStatement, queryDatabase, type ReadConnections } from "../../shared/sql-editor/index.ts";
import { auditAtEndScope } from "../transport/audit-scope.ts";
import { callerOf } from "../transport/interceptors/authn.ts";
import { toQueryResult } from "./sql-query-convert.ts";

export interface SqlQueryDeps {
  db: Db;
  iam: IamReads;
  settings: SettingReader;
  /** Opens data-source passwords to reach the instances. */
  secrets: SecretBox;
  /** The process's PostgreSQL connections kept between reads. */
  connections: ReadConnections;
}

const ANALYZE_PERMISSION = "bb.sql.select";

export function sqlQueryHandlers(deps: SqlQueryDeps): Pick<ServiceImpl<typeof SQLService>, "query" | "explain"> {
  return {
    async query(req, context) {
      const request = { ...req, caller: callerOf(context).name, signal: context.signal };
      const results = await queryDatabase(deps, auditAtEndScope(context), request);
      return { results: results.map(toQueryResult) };
    },
    async explain(req, context) {
      const audit = auditAtEndScope(context);
      if (req.analyze) {
        await requirePermission(deps.iam, callerOf(context), ANALYZE_PERMISSION, await accessScope(deps.db, ANALYZE_PERMISSION, req.name));
      }
      audit.detail = { database: req.name, analyze: req.analyze };
      const plan = await explainStatement(deps, { ...req, caller: callerOf(context).name, signal: context.signal });
      return { plan: plan.text, planJson: plan.json };
    },
  };
}
