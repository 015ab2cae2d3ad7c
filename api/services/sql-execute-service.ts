// SQLService.Execute (contract §14.1, §18.2): a script with writes, run
// statement by statement on the database's ADMIN data source; cancelled when
// the client goes away.
import type { ServiceImpl } from "@connectrpc/connect";
import type { SettingReader } from "../../shared/governance/index.ts";
import type { SQLService } from "../../shared/gen/svc/v1/sql_service_pb.js";
import type { Db, SecretBox } from "../../shared/platform/index.ts";
import { executeScript } from "../../shared/sql-editor/index.ts";
import { auditAtEndScope } from "../transport/audit-scope.ts";
import { callerOf } from "../transport/interceptors/authn.ts";
import { toExecutedStatement } from "./sql-execute-convert.ts";

export interface SqlExecuteDeps {
  db: Db;
  settings: SettingReader;
  /** Opens data-source passwords to reach the instances. */
  secrets: SecretBox;
}

export function sqlExecuteHandlers(deps: SqlExecuteDeps): Pick<ServiceImpl<typeof SQLService>, "execute"> {
  return {
    async execute(req, context) {
      const request = { name: req.name, statement: req.statement, schema: req.schema, caller: callerOf(context).name, signal: context.signal };
      const statements = await executeScript(deps, auditAtEndScope(context), request);
      return { statements: statements.map(toExecutedStatement) };
    },
  };
}
