// What Query, Explain and Export do before anything reaches the target: the
// database and the data source to read it through (contract §14.3), the
// request's statements through the read-only guard — each parsed once, its
// tree going on to masking and export — and the masking of what the caller
// may not see (§19.2), which refuses a statement filtering on a hidden column
// here. Masking lives below the handlers so that no reader of a target can
// leave it out.
import { type ConnectionConfig, type DatabaseRef, parseDatabaseName, queryConnection } from "../../inventory/index.ts";
import { readStatements } from "../guard/read-only-guard.ts";
import type { ReadStatement } from "../guard/statement-tree.ts";
import { prepareMasking, type ResultMasker } from "../masking/result-masking.ts";
import type { QueryDeps } from "./query.ts";

export interface ReadRequest {
  /** instances/<instance>/databases/<database> */
  name: string;
  statement: string;
  /** "" = the instance's READ_ONLY data source when it has one, else ADMIN. */
  dataSourceId: string;
  schema: string;
  /** users/<login_id>: whose masking applies. */
  caller: string;
}

export interface ReadTarget {
  ref: DatabaseRef;
  config: ConnectionConfig;
  statements: ReadStatement[];
  /** Undefined when nothing is hidden from the caller. */
  masker: ResultMasker | undefined;
}

export async function readTarget(deps: QueryDeps, request: ReadRequest): Promise<ReadTarget> {
  const ref = parseDatabaseName(request.name, "name");
  const { config, database } = await queryConnection(deps.db, deps.secrets, ref, request.dataSourceId);
  const statements = await readStatements(config.engine, request.statement);
  const masker = await prepareMasking(deps.db, database, { statements, schema: request.schema, caller: request.caller });
  return { ref, config, statements, masker };
}
