// ListGroups (contract §5.2, §2.1): groups by id in keyset pages, each with
// its members.
import type { CommonQueryMethods } from "slonik";
import { decodePageToken, encodePageToken } from "../list/page.ts";
import { listGroups } from "./group.store.ts";
import { withMembers, type GroupView } from "./groups.ts";

const QUERY = "groups";

export interface GroupPage {
  groups: GroupView[];
  nextPageToken: string;
}

export async function listGroupPage(db: CommonQueryMethods, limit: number, pageToken: string): Promise<GroupPage> {
  const [afterId = ""] = decodePageToken(pageToken, QUERY) ?? [];
  const rows = await listGroups(db, String(afterId), limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    groups: await withMembers(db, page),
    nextPageToken: rows.length > limit && last ? encodePageToken(QUERY, [last.id]) : "",
  };
}
