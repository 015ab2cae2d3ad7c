// SQL reading where settings name a role: SSO_GROUP_MAPPING (contract §7.12,
// {mappings: [{idp, group, bindings: [{role, scope}]}]}) and WORKSPACE_APPROVAL
// (§7.3, {rules: [{template: {title, steps: [{roles: [...]}]}}]}). The setting
// rows are share-locked, so a DeleteRole and an UpdateSetting that adds the
// role cannot both commit. Roles compare ignoring case, as role ids do.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";

export interface MappingEntry {
  idp: string;
  group: string;
}

const mappingEntryRow = z.object({ idp: z.string(), group: z.string() });

const approvalRuleRow = z.object({ rule: z.coerce.number(), title: z.string() });

/** The mapping entries with a binding to `role` (roles/<id>, compared ignoring case). */
export async function mappingEntriesGranting(db: CommonQueryMethods, role: string): Promise<readonly MappingEntry[]> {
  return db.any(sql.type(mappingEntryRow)`
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

/** The approval rules (1-based positions and template titles) with a step naming `role`. */
export async function approvalRulesNaming(db: CommonQueryMethods, role: string): Promise<readonly { rule: number; title: string }[]> {
  return db.any(sql.type(approvalRuleRow)`
    select r.n as rule, coalesce(r.value->'template'->>'title', '') as title
    from setting s
    cross join lateral jsonb_array_elements(
      case when jsonb_typeof(s.value->'rules') = 'array' then s.value->'rules' else '[]'::jsonb end) with ordinality as r(value, n)
    where s.name = 'WORKSPACE_APPROVAL'
      and exists (
        select 1
        from jsonb_array_elements(case when jsonb_typeof(r.value->'template'->'steps') = 'array' then r.value->'template'->'steps' else '[]'::jsonb end) step
        cross join lateral jsonb_array_elements_text(case when jsonb_typeof(step->'roles') = 'array' then step->'roles' else '[]'::jsonb end) named
        where lower(named) = ${role.toLowerCase()})
    order by r.n
    for share of s`);
}
