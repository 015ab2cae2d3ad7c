// SQL on project (contract §9.1).
import { sql, type CommonQueryMethods, type FragmentSqlToken } from "slonik";
import { z } from "zod";
import { afterNewest, type FilterTerm, newestFirst, type PageKey, pageTimeColumn, withPageTime } from "../../platform/index.ts";

export const projectRow = z
  .object({
    id: z.string(),
    title: z.string(),
    key: z.string(),
    state: z.enum(["ACTIVE", "DELETED"]),
    labels: z.record(z.string(), z.string()),
    allow_self_approval: z.boolean().nullable(),
    parallel_tasks_per_rollout: z.number(),
    lock_timeout_ms: z.coerce.number(),
    statement_timeout_ms: z.coerce.number(),
    require_plan_check_success: z.boolean(),
    creator: z.string(),
    etag: z.string(),
    create_time: z.coerce.date(),
    update_time: z.coerce.date(),
  })
  .transform((r) => ({
    id: r.id,
    title: r.title,
    key: r.key,
    state: r.state,
    labels: r.labels,
    allowSelfApproval: r.allow_self_approval ?? undefined,
    parallelTasksPerRollout: r.parallel_tasks_per_rollout,
    lockTimeoutMs: r.lock_timeout_ms,
    statementTimeoutMs: r.statement_timeout_ms,
    requirePlanCheckSuccess: r.require_plan_check_success,
    creator: r.creator,
    etag: r.etag,
    createTime: r.create_time,
    updateTime: r.update_time,
  }));

export type ProjectRow = z.infer<typeof projectRow>;

/** The fields a writer sets. */
export type ProjectFields = Pick<
  ProjectRow,
  "title" | "key" | "labels" | "allowSelfApproval" | "parallelTasksPerRollout" | "lockTimeoutMs" | "statementTimeoutMs" | "requirePlanCheckSuccess"
>;

const columns = sql.fragment`
  id, title, key, state, labels, allow_self_approval, parallel_tasks_per_rollout, lock_timeout_ms,
  statement_timeout_ms, require_plan_check_success, creator, etag, create_time, update_time`;

/** The project; `forUpdate` locks it. Named statements: a call on anything in a project reads it. */
export async function findProject(db: CommonQueryMethods, id: string, forUpdate = false): Promise<ProjectRow | undefined> {
  const row = forUpdate
    ? await db.maybeOne(sql.prepared("project.find_for_update", projectRow)`select ${columns} from project where id = ${id} for update`)
    : await db.maybeOne(sql.prepared("project.find", projectRow)`select ${columns} from project where id = ${id}`);
  return row ?? undefined;
}

/** The new project, or undefined when the id is taken. */
export async function insertProject(db: CommonQueryMethods, id: string, fields: ProjectFields, creator: string): Promise<ProjectRow | undefined> {
  return (
    (await db.maybeOne(sql.type(projectRow)`
      insert into project (id, title, key, labels, allow_self_approval, parallel_tasks_per_rollout, lock_timeout_ms,
                           statement_timeout_ms, require_plan_check_success, creator)
      values (${id}, ${fields.title}, ${fields.key}, ${sql.jsonb(fields.labels)}, ${fields.allowSelfApproval ?? null},
              ${fields.parallelTasksPerRollout}, ${fields.lockTimeoutMs}, ${fields.statementTimeoutMs},
              ${fields.requirePlanCheckSuccess}, ${creator})
      on conflict (id) do nothing
      returning ${columns}`)) ?? undefined
  );
}

export async function updateProject(db: CommonQueryMethods, id: string, fields: ProjectFields): Promise<ProjectRow> {
  return db.one(sql.type(projectRow)`
    update project set title = ${fields.title}, key = ${fields.key}, labels = ${sql.jsonb(fields.labels)},
      allow_self_approval = ${fields.allowSelfApproval ?? null}, parallel_tasks_per_rollout = ${fields.parallelTasksPerRollout},
      lock_timeout_ms = ${fields.lockTimeoutMs}, statement_timeout_ms = ${fields.statementTimeoutMs},
      require_plan_check_success = ${fields.requirePlanCheckSuccess},
      etag = md5(random()::text || clock_timestamp()::text), update_time = now()
    where id = ${id}
    returning ${columns}`);
}

export async function setProjectState(db: CommonQueryMethods, id: string, state: ProjectRow["state"]): Promise<ProjectRow> {
  return db.one(sql.type(projectRow)`
    update project set state = ${state}, etag = md5(random()::text || clock_timestamp()::text), update_time = now()
    where id = ${id}
    returning ${columns}`);
}

export interface ProjectListQuery {
  terms: readonly FilterTerm[];
  showDeleted: boolean;
  /** Only these projects (a caller who may not list them all); undefined = every project. */
  only?: readonly string[];
  /** The page key of the last project served (newest-first.store.ts). */
  after: PageKey | undefined;
  limit: number;
}

const listedProject = withPageTime(projectRow);

/** Projects newest first, each with its page time. */
export async function listProjects(db: CommonQueryMethods, query: ProjectListQuery): Promise<readonly (ProjectRow & { pageTime: string })[]> {
  const conditions: FragmentSqlToken[] = query.terms.map(condition);
  if (!query.showDeleted && !query.terms.some((t) => t.field === "state")) conditions.push(sql.fragment`state = 'ACTIVE'`);
  if (query.only) conditions.push(sql.fragment`id = any(${sql.array(query.only, "text")})`);
  if (query.after) conditions.push(afterNewest(query.after));
  const where = conditions.length > 0 ? sql.fragment`where ${sql.join(conditions, sql.fragment` and `)}` : sql.fragment``;
  return db.any(sql.type(listedProject)`
    select ${columns}, ${pageTimeColumn} from project ${where} ${newestFirst} limit ${query.limit}`);
}

function condition(term: FilterTerm): FragmentSqlToken {
  const value = String(term.value);
  if (term.field === "title") {
    if (term.op === ":") return sql.fragment`strpos(lower(title), ${value.toLowerCase()}) > 0`;
    return term.op === "!=" ? sql.fragment`title <> ${value}` : sql.fragment`title = ${value}`;
  }
  return term.op === "!=" ? sql.fragment`state <> ${value}` : sql.fragment`state = ${value}`;
}

/** A deleted project's databases go to the default project (§9.1). */
export async function moveDatabasesToDefault(db: CommonQueryMethods, id: string): Promise<void> {
  await db.query(sql.unsafe`
    update instance_database set project_id = 'default', etag = md5(random()::text || clock_timestamp()::text), update_time = now()
    where project_id = ${id}`);
}
