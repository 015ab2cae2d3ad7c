// Groups as SCIM Group resources and back (contract §19.4): displayName is
// the title, members[].value the members' SCIM ids (their login ids).
import type { GroupRow } from "../group/group.store.ts";
import { normalizeLoginId } from "../../platform/index.ts";
import { invalidValue } from "./scim-error.ts";
import { isObject, stringAttribute, type JsonObject } from "./scim-json.ts";
import { SCIM_SCHEMA } from "./scim-schemas.ts";

export interface ScimGroupRecord {
  group: GroupRow;
  externalId: string;
  /** Login ids of the members; undefined when the answer leaves members out. */
  members: readonly string[] | undefined;
}

/** What a SCIM Group body says of the group. */
export interface ScimGroupFields {
  title: string;
  externalId: string;
  /** Login ids, each once. */
  members: string[];
}

export function scimGroup({ group, externalId, members }: ScimGroupRecord, baseUrl: string): JsonObject {
  return {
    schemas: [SCIM_SCHEMA.group],
    id: group.id,
    ...(externalId ? { externalId } : {}),
    displayName: group.title,
    ...(members ? { members: members.map((loginId) => ({ value: loginId, $ref: `${baseUrl}/Users/${encodeURIComponent(loginId)}`, type: "User" })) } : {}),
    meta: {
      resourceType: "Group",
      created: group.createTime.toISOString(),
      lastModified: group.updateTime.toISOString(),
      location: `${baseUrl}/Groups/${group.id}`,
    },
  };
}

/** The fields of a Group resource in canonical form (scim-json.ts); members left out means none. */
export function scimGroupFields(resource: JsonObject): ScimGroupFields {
  const title = stringAttribute(resource.displayname, "displayName").trim();
  if (!title) throw invalidValue("displayName is required");
  return { title, externalId: stringAttribute(resource.externalid, "externalId"), members: memberIds(resource.members) };
}

function memberIds(members: JsonObject[string] | undefined): string[] {
  if (members === undefined || members === null) return [];
  if (!Array.isArray(members)) throw invalidValue("members must be a list of {value: <user id>}");
  const ids = members.map((member, i) => {
    const value = isObject(member) ? stringAttribute(member.value, `members[${i}].value`) : "";
    const loginId = normalizeLoginId(value);
    if (!loginId) throw invalidValue(`members[${i}].value must be the id of a user, got ${JSON.stringify(isObject(member) ? (member.value ?? null) : member)}`);
    return loginId;
  });
  return [...new Set(ids)];
}
