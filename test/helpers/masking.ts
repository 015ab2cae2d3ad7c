// Fixtures for the masking tests: the workspace's semantic types and
// classification, and the catalog, rule and exemption writes as the admin.
import assert from "node:assert/strict";
import type { SqlTargets } from "./sql-targets.ts";

type Json = Record<string, any>;

export const SEMANTIC_TYPES = [
  { id: "full", algorithm: { fullMask: {} } },
  { id: "stars", algorithm: { fullMask: { substitution: "###" } } },
  { id: "range", algorithm: { rangeMask: { slices: [{ start: 0, end: 2, substitution: "**" }] } } },
  { id: "md5", algorithm: { md5Mask: { salt: "pepper" } } },
  { id: "inner", algorithm: { innerOuterMask: { prefixLen: 1, suffixLen: 1, type: "INNER", substitution: "*" } } },
  { id: "outer", algorithm: { innerOuterMask: { prefixLen: 2, suffixLen: 2, type: "OUTER", substitution: "#" } } },
];

export const CLASSIFICATION = {
  id: "c",
  levels: [{ id: "public", level: 1 }, { id: "secret", level: 3 }],
  classifications: { "1": { id: "1", level: "public" }, "2": { id: "2", level: "secret" } },
};

/** Stores SEMANTIC_TYPES and DATA_CLASSIFICATION. */
export async function storeMaskingSchemes(t: SqlTargets): Promise<void> {
  const patch = (name: string, value: Json) =>
    t.rest<Json>("PATCH", `/v1/settings/${name}?updateMask=*`, { token: t.admin, body: { name: `settings/${name}`, value } });
  assert.equal((await patch("SEMANTIC_TYPES", { semanticTypes: { types: SEMANTIC_TYPES } })).status, 200);
  assert.equal((await patch("DATA_CLASSIFICATION", { dataClassification: { configs: [CLASSIFICATION] } })).status, 200);
}

/** PATCH of a database's catalog: columns as [schema, table, column, semanticType, classification]. */
export function patchCatalog(t: SqlTargets, database: string, columns: string[][], token = t.admin) {
  const schemas = new Map<string, Map<string, Json[]>>();
  for (const [schema, table, name, semanticType = "", classification = ""] of columns) {
    const tables = schemas.get(schema!) ?? schemas.set(schema!, new Map()).get(schema!)!;
    (tables.get(table!) ?? tables.set(table!, []).get(table!)!).push({ name, semanticType, classification });
  }
  const catalog = {
    name: `${database}/catalog`,
    schemas: [...schemas].map(([name, tables]) => ({ name, tables: [...tables].map(([table, cols]) => ({ name: table, columns: cols })) })),
  };
  return t.rest<Json>("PATCH", `/v1/${database}/catalog`, { token, body: catalog });
}

/** PATCH of a policy: policies/MASKING_RULE or projects/<p>/policies/MASKING_EXEMPTION. */
export function patchPolicy(t: SqlTargets, name: string, policy: Json, token = t.admin) {
  return t.rest<Json>("PATCH", `/v1/${name}`, { token, body: { name, ...policy } });
}
