// ListGroups (contract §5.2, §2.1): groups by id in keyset pages, each with
// its members.
import type { CommonQueryMethods } from "slonik";
import { decodePageToken, encodePageToken, invalidArgument } from "../../platform/index.ts";
import { listGroups } from "./group.store.ts";
import { withMembers, type GroupView } from "./groups.ts";

const QUERY = "groups";

export interface GroupPage {
  groups: GroupView[];
  nextPageToken: string;
}

export async function listGroupPage(db: CommonQueryMethods, limit: number, pageToken: string): Promise<GroupPage> {
  const rows = await listGroups(db, afterId(pageToken), limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    groups: await withMembers(db, page),
    nextPageToken: rows.length > limit && last ? encodePageToken(QUERY, [last.id]) : "",
  };
}

/** The id a page token continues after ("" for the first page); a token of another shape → invalid_argument. */
function afterId(pageToken: string): string {
  const key = decodePageToken(pageToken, QUERY, ["text"]);
  if (key === undefined) return "";
  const [id] = key;
  if (key.length !== 1 || typeof id !== "string") throw invalidArgument("page_token is malformed");
  return id;
}
