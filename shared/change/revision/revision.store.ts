// SQL on revision (contract §13.2). A database has at most one live (not
// deleted) revision per version: the unique index revision_live_version.
import { sql, type CommonQueryMethods, type FragmentSqlToken } from "slonik";
import { z } from "zod";
import type { DatabaseRef } from "../../inventory/index.ts";
import { type FilterTerm, serialIdRow, sqlOperator } from "../../platform/index.ts";

export const revisionRow = z
  .object({
    id: z.coerce.number(),
    instance_id: z.string(),
    database_name: z.string(),
    release: z.string(),
    file: z.string(),
    version: z.string(),
    sha256: z.string(),
    task_run_id: z.coerce.number().nullable(),
    task_id: z.coerce.number().nullable(),
    task_project_id: z.string().nullable(),
    task_rollout_id: z.string().nullable(),
    creator: z.string(),
    create_time: z.coerce.date(),
    delete_time: z.coerce.date().nullable(),
  })
  .transform((r) => ({
    id: r.id,
    database: { instanceId: r.instance_id, name: r.database_name } satisfies DatabaseRef,
    release: r.release,
    file: r.file,
    version: r.version,
    sha256: r.sha256,
    /** The task run that applied it; undefined for a baseline. */
    taskRun:
      r.task_run_id === null
        ? undefined
        : { id: r.task_run_id, taskId: r.task_id!, rollout: { projectId: r.task_project_id!, id: r.task_rollout_id! } },
    creator: r.creator,
    createTime: r.create_time,
    deleteTime: r.delete_time ?? undefined,
  }));

export type RevisionRow = z.infer<typeof revisionRow>;

const columns = sql.fragment`
  v.id, v.instance_id, v.database_name, v.release, v.file, v.version, v.sha256, v.task_run_id,
  r.task_id, r.project_id as task_project_id, r.rollout_id as task_rollout_id, v.creator, v.create_time, v.delete_time`;
const joined = sql.fragment`revision v left join task_run r on r.id = v.task_run_id`;

export async function findRevision(db: CommonQueryMethods, database: DatabaseRef, id: number): Promise<RevisionRow | undefined> {
  return (
    (await db.maybeOne(sql.type(revisionRow)`
      select ${columns} from ${joined}
      where v.id = ${id} and v.instance_id = ${database.instanceId} and v.database_name = ${database.name}`)) ?? undefined
  );
}

/** The live revision of the version on the database, if any. */
export async function findLiveRevision(db: CommonQueryMethods, database: DatabaseRef, version: string): Promise<RevisionRow | undefined> {
  return (
    (await db.maybeOne(sql.type(revisionRow)`
      select ${columns} from ${joined}
      where v.instance_id = ${database.instanceId} and v.database_name = ${database.name} and v.version = ${version} and v.delete_time is null`)) ??
    undefined
  );
}

/** The live revisions of the databases whose version is one of those given. */
export async function findLiveRevisions(db: CommonQueryMethods, databases: readonly DatabaseRef[], versions: readonly string[]): Promise<readonly RevisionRow[]> {
  if (databases.length === 0 || versions.length === 0) return [];
  return db.any(sql.type(revisionRow)`
    select ${columns} from ${joined}
    join unnest(${sql.array(databases.map((d) => d.instanceId), "text")}, ${sql.array(databases.map((d) => d.name), "text")})
      as wanted (instance_id, name) on wanted.instance_id = v.instance_id and wanted.name = v.database_name
    where v.delete_time is null and v.version = any(${sql.array(versions, "text")})`);
}

export interface NewRevision {
  database: DatabaseRef;
  release: string;
  file: string;
  version: string;
  sha256: string;
  taskRunId: number | undefined;
  creator: string;
}

/**
 * The new revision; undefined when the database already has a live revision
 * of the version (one being inserted concurrently is waited for).
 */
export async function insertRevision(db: CommonQueryMethods, revision: NewRevision): Promise<RevisionRow | undefined> {
  const id = await db.maybeOneFirst(sql.type(serialIdRow)`
    insert into revision (instance_id, database_name, release, file, version, sha256, task_run_id, creator)
    values (${revision.database.instanceId}, ${revision.database.name}, ${revision.release}, ${revision.file}, ${revision.version},
            ${revision.sha256}, ${revision.taskRunId ?? null}, ${revision.creator})
    on conflict do nothing
    returning id`);
  return id === null ? undefined : findRevision(db, revision.database, id);
}

/** Marks a live revision deleted; false when there is none of that id on the database. */
export async function markRevisionDeleted(db: CommonQueryMethods, database: DatabaseRef, id: number): Promise<boolean> {
  const result = await db.query(sql.unsafe`
    update revision set delete_time = now()
    where id = ${id} and instance_id = ${database.instanceId} and database_name = ${database.name} and delete_time is null`);
  return result.rowCount > 0;
}

export interface RevisionListQuery {
  database: DatabaseRef;
  terms: readonly FilterTerm[];
  showDeleted: boolean;
  /** The id of the last revision served (newest first), or undefined from the newest. */
  before: number | undefined;
  limit: number;
}

/** A database's revisions newest first (by id, which grows with each one recorded). */
export async function listRevisions(db: CommonQueryMethods, query: RevisionListQuery): Promise<readonly RevisionRow[]> {
  const conditions = [
    sql.fragment`v.instance_id = ${query.database.instanceId}`,
    sql.fragment`v.database_name = ${query.database.name}`,
    ...query.terms.map(condition),
  ];
  if (!query.showDeleted) conditions.push(sql.fragment`v.delete_time is null`);
  if (query.before !== undefined) conditions.push(sql.fragment`v.id < ${query.before}`);
  return db.any(sql.type(revisionRow)`
    select ${columns} from ${joined} where ${sql.join(conditions, sql.fragment` and `)} order by v.id desc limit ${query.limit}`);
}

function condition(term: FilterTerm): FragmentSqlToken {
  if (term.field === "create_time") return sql.fragment`v.create_time ${sqlOperator(term.op)} ${(term.value as Date).toISOString()}::timestamptz`;
  return sql.fragment`v.version ${sqlOperator(term.op)} ${String(term.value)}`;
}
