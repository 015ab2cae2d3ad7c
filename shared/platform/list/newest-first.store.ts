// Keyset paging in "newest first" order (contract §2.1, §2.2): rows sorted by
// create_time then id, both descending, and a page key of the last row's
// create time (RFC 3339 with microseconds, so no two rows blur) and id.
import { sql, type FragmentSqlToken } from "slonik";
import { z } from "zod";
import type { PageKey } from "./page.ts";

/** Select-list entry giving the row's page time as `page_time`. */
export const pageTimeColumn = sql.fragment`to_char(create_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as page_time`;

export const newestFirst = sql.fragment`order by create_time desc, id desc`;

/** Rows after the key [page_time, id] in newest-first order; the id compares as text. */
export function afterNewest(after: PageKey): FragmentSqlToken {
  const [time, id] = after;
  return sql.fragment`(create_time, id::text) < (${String(time)}::timestamptz, ${String(id)})`;
}

const pageTime = z.object({ page_time: z.string() }).transform((r) => ({ pageTime: r.page_time }));

/** A row type read with `pageTimeColumn`: the row plus its pageTime. */
export function withPageTime<T extends z.ZodTypeAny>(row: T) {
  return z.intersection(row, pageTime);
}
