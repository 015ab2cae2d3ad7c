// Idempotent creates (contract §0.6): a create that carries a request_id
// answers the row the same creator made with it in the last 24 hours; a use
// older than that frees the id for a new row (each table's store clears it,
// with oldRequestUse). One implementation for every table with a (creator,
// request_id) unique index.
import { sql, type CommonQueryMethods, type FragmentSqlToken } from "slonik";
import type { z } from "zod";

export type RequestTable = "plan" | "release" | "issue";

/** The row `creator` made with `requestId` in the last 24 hours, read as `columns` into `row`. */
export async function findByRequest<Row>(
  db: CommonQueryMethods,
  table: RequestTable,
  columns: FragmentSqlToken,
  row: z.ZodType<Row>,
  creator: string,
  requestId: string,
): Promise<Row | undefined> {
  return (
    (await db.maybeOne(sql.type(row)`
      select ${columns} from ${sql.identifier([table])}
      where creator = ${creator} and request_id = ${requestId} and create_time > now() - interval '24 hours'`)) ?? undefined
  );
}

/** The condition of the rows whose use of a request id is more than 24 hours old: clearing their request_id frees it for a new row. */
export function oldRequestUse(creator: string, requestId: string): FragmentSqlToken {
  return sql.fragment`creator = ${creator} and request_id = ${requestId} and create_time <= now() - interval '24 hours'`;
}
