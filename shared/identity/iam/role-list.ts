// ListRoles (contract §6.3): the predefined roles in the contract's order,
// then the custom roles by id (ignoring case), in keyset pages. A page token
// holds the last role served: ["b", <predefined id>] or ["c", <lower-case id>].
import type { CommonQueryMethods } from "slonik";
import { decodePageToken, encodePageToken, invalidArgument } from "../../platform/index.ts";
import { PREDEFINED_ROLES } from "./predefined-roles.ts";
import { listCustomRoles } from "./role.store.ts";
import { builtInRoleInfo, customRoleInfo, type RoleInfo } from "./roles.ts";

const QUERY = "roles";

export interface RolePage {
  roles: RoleInfo[];
  nextPageToken: string;
}

export async function listRoles(db: CommonQueryMethods, limit: number, pageToken: string): Promise<RolePage> {
  const after = startAfter(pageToken);
  const builtIns = PREDEFINED_ROLES.slice(after.builtInIndex, after.builtInIndex + limit + 1).map(builtInRoleInfo);
  const customs = builtIns.length > limit ? [] : (await listCustomRoles(db, after.customId, limit + 1 - builtIns.length)).map(customRoleInfo);
  const rows = [...builtIns, ...customs];
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  const key = last && (last.type === "BUILT_IN" ? ["b", last.id] : ["c", last.id.toLowerCase()]);
  return { roles: page, nextPageToken: rows.length > limit && key ? encodePageToken(QUERY, key) : "" };
}

/** Where the page starts: the first predefined role to serve (their count when done) and the custom id to follow. */
function startAfter(pageToken: string): { builtInIndex: number; customId: string } {
  const key = decodePageToken(pageToken, QUERY, ["text", "text"]);
  if (key === undefined) return { builtInIndex: 0, customId: "" };
  const [kind, id] = key;
  const index = PREDEFINED_ROLES.findIndex((r) => r.id === id);
  if (kind === "b" && index >= 0) return { builtInIndex: index + 1, customId: "" };
  if (kind === "c" && typeof id === "string") return { builtInIndex: PREDEFINED_ROLES.length, customId: id };
  throw invalidArgument("page_token is malformed");
}
