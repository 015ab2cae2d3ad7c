// SQL reading where SSO_GROUP_MAPPING (contract §7.12) grants a role: its
// stored payload is {mappings: [{idp, group, bindings: [{role, scope}]}]}.
// The setting row is share-locked, so a DeleteRole and an UpdateSetting that
// adds the role to the mapping cannot both commit.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";

export interface MappingEntry {
  idp: string;
  group: string;
}

/** The mapping entries with a binding to `role` (roles/<id>, compared ignoring case). */
export async function mappingEntriesGranting(db: CommonQueryMethods, role: string): Promise<readonly MappingEntry[]> {
  return db.any(sql.type(z.object({ idp: z.string(), group: z.string() }))`
    select coalesce(m.value->>'idp', '') as idp, coalesce(m.value->>'group', '') as "group"
    from setting s
    cross join lateral jsonb_array_elements(
      case when jsonb_typeof(s.value->'mappings') = 'array' then s.value->'mappings' else '[]'::jsonb end) with ordinality as m(value, n)
    where s.name = 'SSO_GROUP_MAPPING'
      and exists (
        select 1
        from jsonb_array_elements(case when jsonb_typeof(m.value->'bindings') = 'array' then m.value->'bindings' else '[]'::jsonb end) b
        where jsonb_typeof(b) = 'object' and lower(b->>'role') = ${role.toLowerCase()})
    order by m.n
    for share of s`);
}
