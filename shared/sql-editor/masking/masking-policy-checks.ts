// What a masking policy write must hold (contract §19.2): rules naming known
// environments, semantic types and classification levels; exemptions naming
// members and, when scoped, a database of the exemption's project.
import type { CommonQueryMethods } from "slonik";
import { readEnvironments, storedSettings } from "../../governance/index.ts";
import { getDatabase, parseDatabaseName, parseProjectName } from "../../inventory/index.ts";
import { invalidArgument, quoted } from "../../platform/index.ts";
import { readMaskingSchemes } from "./masking-schemes.ts";
import type { MaskingExemption, MaskingRule } from "./masking-policy-types.ts";

const MEMBER = /^(user:login_id=[^\s]+|group:[^\s]+)$/;

export async function checkMaskingRules(tx: CommonQueryMethods, rules: readonly MaskingRule[]): Promise<void> {
  const settings = storedSettings(tx);
  const schemes = await readMaskingSchemes(settings);
  const environments = new Set((await readEnvironments(settings)).map((env) => `environments/${env.id}`));
  const ids = new Set<string>();
  rules.forEach((rule, i) => {
    const path = `maskingRulePolicy.rules[${i}]`;
    if (rule.id === "" || ids.has(rule.id)) throw invalidArgument(`${path}.id must be set and unique, got ${quoted(rule.id)}`);
    ids.add(rule.id);
    if (rule.semanticType && !schemes.semanticTypes.has(rule.semanticType)) throw unknown(`${path}.semanticType`, rule.semanticType, "SEMANTIC_TYPES");
    const condition = rule.condition;
    for (const env of condition.environments) if (!environments.has(env)) throw unknown(`${path}.condition.environments`, env, "ENVIRONMENT");
    for (const project of condition.projects) parseProjectName(project, `${path}.condition.projects`);
    for (const level of condition.classificationLevels) if (!schemes.levels.has(level)) throw unknown(`${path}.condition.classificationLevels`, level, "DATA_CLASSIFICATION");
    for (const type of condition.semanticTypes) if (!schemes.semanticTypes.has(type)) throw unknown(`${path}.condition.semanticTypes`, type, "SEMANTIC_TYPES");
  });
}

export async function checkMaskingExemptions(tx: CommonQueryMethods, projectId: string, exemptions: readonly MaskingExemption[]): Promise<void> {
  for (const [i, exemption] of exemptions.entries()) {
    const path = `maskingExemptionPolicy.exemptions[${i}]`;
    if (exemption.members.length === 0) throw invalidArgument(`${path}.members must name at least one member`);
    const bad = exemption.members.find((member) => !MEMBER.test(member));
    if (bad !== undefined) throw invalidArgument(`${path}.members: ${quoted(bad)} is not a member; use user:login_id=<id> or group:<id>`);
    if (exemption.expireTime !== undefined && Number.isNaN(Date.parse(exemption.expireTime))) throw invalidArgument(`${path}.expireTime is not a time`);
    if (exemption.database === "") {
      if (exemption.schema || exemption.table || exemption.columns.length > 0) throw invalidArgument(`${path}: a schema, table or column needs its database`);
      continue;
    }
    const database = await getDatabase(tx, parseDatabaseName(exemption.database, `${path}.database`));
    if (database.projectId !== projectId) throw invalidArgument(`${path}.database: ${quoted(exemption.database)} is not in projects/${projectId}`);
    if (exemption.columns.length > 0 && exemption.table === "") throw invalidArgument(`${path}: columns need their table`);
  }
}

function unknown(path: string, value: string, setting: string): Error {
  return invalidArgument(`${path}: ${quoted(value)} is not in ${setting}`);
}
