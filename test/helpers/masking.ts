// Fixtures for the masking tests: the workspace's semantic types and
// classification, and the catalog, rule and exemption writes as the admin.
import assert from "node:assert/strict";
import { signIn } from "./sessions.ts";
import type { SqlTargets } from "./sql-targets.ts";
import { makeUser } from "./users.ts";

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

/** A project holding the databases, and a user "querier" with roles/projectQuerier in it; answers the querier's token. */
export async function querierOfProject(t: SqlTargets, project: string, databases: string[]): Promise<string> {
  await t.rest("POST", `/v1/projects?projectId=${project}`, { token: t.admin, body: { title: project } });
  assert.equal((await t.rest("POST", "/v1/databases:transfer", { token: t.admin, body: { databases, targetProject: `projects/${project}` } })).status, 200);
  await makeUser(t.app.db, "querier");
  const bindings = [{ role: "roles/projectQuerier", members: ["user:login_id=querier"] }];
  assert.equal((await t.rest("POST", `/v1/projects/${project}:setIamPolicy`, { token: t.admin, body: { policy: { bindings } } })).status, 200);
  return signIn(t.rest, "querier");
}

/** The person table of the masking tests: its rows, and its columns each marked for one algorithm (code by a classification a rule matches). */
export const PERSON = [
  "create table person (id int, name text, email text, phone text, card text, city text, code text)",
  "insert into person values (1, 'Alice', 'alice@example.com', '5551234', 'ABCDEFGH', 'Paris', 'XY12')",
];

export async function markPerson(t: SqlTargets, database: string, schema: string): Promise<void> {
  const marks = [["name", "full"], ["email", "md5"], ["phone", "range"], ["card", "inner"], ["city", "outer"], ["code", "", "2"]];
  assert.equal((await patchCatalog(t, database, marks.map(([c, type, cls]) => [schema, "person", c!, type!, cls ?? ""]))).status, 200);
  const rules = [{ id: "secret", condition: { classificationLevels: ["secret"] }, semanticType: "stars" }];
  assert.equal((await patchPolicy(t, "policies/MASKING_RULE", { maskingRulePolicy: { rules } })).status, 200);
}
