// SQL on plan (contract §10.1).
import { sql, type CommonQueryMethods, type FragmentSqlToken } from "slonik";
import {
  afterNewest,
  type FilterTerm,
  findByRequest,
  newestFirst,
  oldRequestUse,
  type PageKey,
  pageTimeColumn,
  sqlOperator,
  withPageTime,
} from "../../platform/index.ts";
import { z } from "zod";
import type { PlanSpec } from "./plan-specs.ts";

const releaseFile = z.object({ release: z.string(), path: z.string(), version: z.string(), sha256: z.string() });
const spec = z.object({
  id: z.string(),
  targets: z.array(z.string()),
  statement: z.string(),
  type: z.enum(["MIGRATE", "DATA"]),
  releaseFile: releaseFile.optional(),
});

export const planRow = z
  .object({
    project_id: z.string(),
    id: z.string(),
    title: z.string(),
    description: z.string(),
    specs: z.array(spec),
    state: z.enum(["ACTIVE", "DELETED"]),
    creator: z.string(),
    etag: z.string(),
    create_time: z.coerce.date(),
    update_time: z.coerce.date(),
  })
  .transform((r) => ({
    projectId: r.project_id,
    id: r.id,
    title: r.title,
    description: r.description,
    specs: r.specs as PlanSpec[],
    state: r.state,
    creator: r.creator,
    etag: r.etag,
    createTime: r.create_time,
    updateTime: r.update_time,
  }));

export type PlanRow = z.infer<typeof planRow>;

export interface PlanFields {
  title: string;
  description: string;
  specs: readonly PlanSpec[];
}

export const planColumns = sql.fragment`project_id, id, title, description, specs, state, creator, etag, create_time, update_time`;

export async function findPlan(db: CommonQueryMethods, projectId: string, id: string, forUpdate = false): Promise<PlanRow | undefined> {
  return (
    (await db.maybeOne(sql.type(planRow)`
      select ${planColumns} from plan where project_id = ${projectId} and id = ${id} ${forUpdate ? sql.fragment`for update` : sql.fragment``}`)) ??
    undefined
  );
}

/** The new plan; undefined when its id or its request id is taken. */
export async function insertPlan(
  db: CommonQueryMethods,
  plan: PlanFields & { projectId: string; id: string | undefined; creator: string; requestId: string | undefined },
): Promise<PlanRow | undefined> {
  const id = plan.id === undefined ? sql.fragment`default` : sql.fragment`${plan.id}`;
  return (
    (await db.maybeOne(sql.type(planRow)`
      insert into plan (project_id, id, title, description, specs, creator, request_id)
      values (${plan.projectId}, ${id}, ${plan.title}, ${plan.description}, ${sql.jsonb(plan.specs as never)}, ${plan.creator},
              ${plan.requestId ?? null})
      on conflict do nothing
      returning ${planColumns}`)) ?? undefined
  );
}

export async function updatePlan(db: CommonQueryMethods, projectId: string, id: string, fields: PlanFields): Promise<PlanRow> {
  return db.one(sql.type(planRow)`
    update plan set title = ${fields.title}, description = ${fields.description}, specs = ${sql.jsonb(fields.specs as never)},
      etag = md5(random()::text || clock_timestamp()::text), update_time = now()
    where project_id = ${projectId} and id = ${id}
    returning ${planColumns}`);
}

export async function markPlanDeleted(db: CommonQueryMethods, projectId: string, id: string): Promise<void> {
  await db.query(sql.unsafe`
    update plan set state = 'DELETED', etag = md5(random()::text || clock_timestamp()::text), update_time = now()
    where project_id = ${projectId} and id = ${id}`);
}

export interface PlanListQuery {
  projectId: string;
  terms: readonly FilterTerm[];
  showDeleted: boolean;
  after: PageKey | undefined;
  limit: number;
}

const listedPlan = withPageTime(planRow);

/** A project's plans newest first, each with its page time. */
export async function listPlans(db: CommonQueryMethods, query: PlanListQuery): Promise<readonly (PlanRow & { pageTime: string })[]> {
  const conditions = [sql.fragment`project_id = ${query.projectId}`, ...query.terms.map(condition)];
  if (!query.showDeleted) conditions.push(sql.fragment`state = 'ACTIVE'`);
  if (query.after) conditions.push(afterNewest(query.after));
  return db.any(sql.type(listedPlan)`
    select ${planColumns}, ${pageTimeColumn} from plan where ${sql.join(conditions, sql.fragment` and `)} ${newestFirst} limit ${query.limit}`);
}

function condition(term: FilterTerm): FragmentSqlToken {
  if (term.field === "has_rollout") {
    const exists = sql.fragment`exists (select 1 from rollout r where r.project_id = plan.project_id and r.plan_id = plan.id)`;
    return (term.value === true) === (term.op !== "!=") ? exists : sql.fragment`not ${exists}`;
  }
  if (term.field === "create_time") return sql.fragment`create_time ${sqlOperator(term.op)} ${(term.value as Date).toISOString()}::timestamptz`;
  const value = String(term.value);
  if (term.field === "title" && term.op === ":") return sql.fragment`strpos(lower(title), ${value.toLowerCase()}) > 0`;
  const column = term.field === "title" ? sql.fragment`title` : sql.fragment`creator`;
  return sql.fragment`${column} ${sqlOperator(term.op)} ${value}`;
}

/** The plan a creator made with a request id in the last 24 hours (§0.6). */
export function findPlanByRequest(db: CommonQueryMethods, creator: string, requestId: string): Promise<PlanRow | undefined> {
  return findByRequest(db, "plan", planColumns, planRow, creator, requestId);
}

/** Frees a request id the creator used for a plan more than 24 hours ago. */
export async function forgetOldPlanRequest(db: CommonQueryMethods, creator: string, requestId: string): Promise<void> {
  await db.query(sql.unsafe`update plan set request_id = null where ${oldRequestUse(creator, requestId)}`);
}
