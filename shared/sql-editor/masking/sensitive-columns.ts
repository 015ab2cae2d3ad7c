// The columns of one database that a caller may not see (contract §19.2): its
// catalog's columns that a masking rule matches — by the database's
// environment and project, the column's classification level and its semantic
// type; the first rule wins and gives the algorithm — or that carry a
// semantic type (then masked by that type's algorithm when no rule matches),
// less those a live exemption of the database's project gives the caller.
import type { CommonQueryMethods } from "slonik";
import { storedSettings } from "../../governance/index.ts";
import { groupIdsOfUser } from "../../identity/index.ts";
import { databaseName, type DatabaseRef, type DatabaseRow } from "../../inventory/index.ts";
import { maskOf, type Mask } from "./masking-algorithms.ts";
import type { CatalogSchema } from "./catalog.store.ts";
import { findMaskingPolicy } from "./masking-policy.store.ts";
import type { MaskingExemption, MaskingRule } from "./masking-policy-types.ts";
import { type MaskingSchemes, readMaskingSchemes } from "./masking-schemes.ts";
import { WORKSPACE_RESOURCE } from "./masking-policies.ts";

export interface ColumnMask {
  semanticType: string;
  reason: string;
  mask: Mask;
}

/** Sensitive columns by `schema.table.column`. */
export type SensitiveColumns = Map<string, ColumnMask>;

export function columnKey(schema: string, table: string, column: string): string {
  return `${schema}.${table}.${column}`;
}

export async function sensitiveColumns(db: CommonQueryMethods, database: DatabaseRow, catalog: readonly CatalogSchema[], loginId: string): Promise<SensitiveColumns> {
  const schemes = await readMaskingSchemes(storedSettings(db));
  const rules = ((await findMaskingPolicy(db, WORKSPACE_RESOURCE, "MASKING_RULE"))?.payload["rules"] ?? []) as MaskingRule[];
  const exemptions = ((await findMaskingPolicy(db, `projects/${database.projectId}`, "MASKING_EXEMPTION"))?.payload["exemptions"] ?? []) as MaskingExemption[];
  const mine = await callersExemptions(db, exemptions, loginId, databaseName(database as DatabaseRef));
  const found: SensitiveColumns = new Map();
  for (const schema of catalog) {
    for (const table of schema.tables) {
      for (const column of table.columns) {
        const mask = columnMask(column, database, schemes, rules);
        const exempt = mine.some((e) => (!e.schema || e.schema === schema.name) && (!e.table || e.table === table.name) && (e.columns.length === 0 || e.columns.includes(column.name)));
        if (mask && !exempt) found.set(columnKey(schema.name, table.name, column.name), mask);
      }
    }
  }
  return found;
}

/** The first rule matching the column wins; a column with a semantic type that no rule matches is masked by its type's own algorithm. */
function columnMask(column: { semanticType: string; classification: string }, database: DatabaseRow, schemes: MaskingSchemes, rules: readonly MaskingRule[]): ColumnMask | undefined {
  const level = schemes.classificationLevels.get(column.classification) ?? "";
  const rule = rules.find((r) => matches(r.condition.environments, `environments/${database.environment}`) && matches(r.condition.projects, `projects/${database.projectId}`)
    && matches(r.condition.classificationLevels, level) && matches(r.condition.semanticTypes, column.semanticType));
  if (rule) {
    const marks = [column.semanticType && `semantic type ${column.semanticType}`, column.classification && `classification ${column.classification} (level ${level})`];
    const reason = `${marks.filter(Boolean).join(", ")} matches masking rule ${rule.id}`;
    return { semanticType: rule.semanticType, reason, mask: maskOf(schemes.semanticTypes.get(rule.semanticType)) };
  }
  if (!column.semanticType) return undefined;
  return { semanticType: column.semanticType, reason: `semantic type ${column.semanticType}`, mask: maskOf(schemes.semanticTypes.get(column.semanticType)) };
}

/** An empty list matches anything; a value "" (the column has no such mark) matches only an empty list. */
function matches(list: readonly string[] | undefined, value: string): boolean {
  return !list || list.length === 0 || list.includes(value);
}

/** The live exemptions naming the caller (or a group of theirs) that cover this database. */
async function callersExemptions(db: CommonQueryMethods, exemptions: readonly MaskingExemption[], loginId: string, database: string): Promise<MaskingExemption[]> {
  const now = Date.now();
  const live = exemptions.filter((e) => (!e.database || e.database === database) && (!e.expireTime || Date.parse(e.expireTime) > now));
  const groups = live.some((e) => e.members.some((m) => m.startsWith("group:"))) ? new Set(await groupIdsOfUser(db, loginId)) : new Set<string>();
  return live.filter((e) => e.members.some((m) => m === `user:login_id=${loginId}` || (m.startsWith("group:") && groups.has(m.slice("group:".length)))));
}
