// SQLService.Query and Explain (contract §14.1–§14.4): reads on a database in
// a read-only session, cancelled when the client goes away. Explain with
// `analyze` runs the statement, so it also needs bb.sql.select on the
// database's project, checked here beside the method's bb.sql.explain. A plan
// cannot be masked (its filters quote values, analyze counts matching rows),
// so Explain of a statement reading a column the caller may not see is refused.
import type { ServiceImpl } from "@connectrpc/connect";
import type { SettingReader } from "../../shared/governance/index.ts";
import { type IamReads, requirePermission } from "../../shared/identity/index.ts";
import { accessScope } from "../../shared/inventory/index.ts";
import { type Db, invalidArgument, type SecretBox } from "../../shared/platform/index.ts";
import type { SQLService } from "../../shared/gen/svc/v1/sql_service_pb.js";
import { explainStatement, type MaskingRequest, prepareMasking, queryDatabase } from "../../shared/sql-editor/index.ts";
import { auditAtEndScope } from "../transport/audit-scope.ts";
import { callerOf } from "../transport/interceptors/authn.ts";
import { toMaskedQueryResult } from "./sql-query-masking.ts";

export interface SqlQueryDeps {
  db: Db;
  iam: IamReads;
  settings: SettingReader;
  /** Opens data-source passwords to reach the instances. */
  secrets: SecretBox;
}

const ANALYZE_PERMISSION = "bb.sql.select";

export function sqlQueryHandlers(deps: SqlQueryDeps): Pick<ServiceImpl<typeof SQLService>, "query" | "explain"> {
  return {
    async query(req, context) {
      const request = { ...req, caller: callerOf(context).name, signal: context.signal };
      const masker = await prepareMasking(deps.db, request);
      const results = await queryDatabase(deps, auditAtEndScope(context), { ...request, masker });
      return { results: results.map((result) => toMaskedQueryResult(result, masker)) };
    },
    async explain(req, context) {
      const audit = auditAtEndScope(context);
      if (req.analyze) {
        await requirePermission(deps.iam, callerOf(context), ANALYZE_PERMISSION, await accessScope(deps.db, ANALYZE_PERMISSION, req.name));
      }
      audit.detail = { database: req.name, analyze: req.analyze };
      await refuseHiddenPlan(deps.db, { ...req, caller: callerOf(context).name });
      const plan = await explainStatement(deps, { ...req, signal: context.signal });
      return { plan: plan.text, planJson: plan.json };
    },
  };
}

async function refuseHiddenPlan(db: Db, request: MaskingRequest): Promise<void> {
  const masker = await prepareMasking(db, request);
  if (masker?.hidesAny) {
    throw invalidArgument("statement: it reads columns masked for you, and a plan cannot be masked (it shows filter values and matching row counts): Explain is refused");
  }
}
