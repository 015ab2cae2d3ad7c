// SQL on release (contract §13.1).
import { sql, type CommonQueryMethods, type FragmentSqlToken } from "slonik";
import { z } from "zod";
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
import type { ReleaseFile } from "./release-files.ts";

const file = z.object({
  path: z.string(),
  version: z.string(),
  type: z.literal("VERSIONED"),
  changeType: z.enum(["MIGRATE", "DATA"]),
  statement: z.string(),
  sha256: z.string(),
});
const vcsSource = z.object({ url: z.string(), commit: z.string() });

export type VcsSource = z.infer<typeof vcsSource>;

export const releaseRow = z
  .object({
    project_id: z.string(),
    id: z.string(),
    title: z.string(),
    files: z.array(file),
    vcs_source: vcsSource.nullable(),
    state: z.enum(["ACTIVE", "DELETED"]),
    creator: z.string(),
    create_time: z.coerce.date(),
    update_time: z.coerce.date(),
  })
  .transform((r) => ({
    projectId: r.project_id,
    id: r.id,
    title: r.title,
    files: r.files as ReleaseFile[],
    vcsSource: r.vcs_source ?? undefined,
    state: r.state,
    creator: r.creator,
    createTime: r.create_time,
    updateTime: r.update_time,
  }));

export type ReleaseRow = z.infer<typeof releaseRow>;

const columns = sql.fragment`project_id, id, title, files, vcs_source, state, creator, create_time, update_time`;

export async function findRelease(db: CommonQueryMethods, projectId: string, id: string, forUpdate = false): Promise<ReleaseRow | undefined> {
  return (
    (await db.maybeOne(sql.type(releaseRow)`
      select ${columns} from release where project_id = ${projectId} and id = ${id} ${forUpdate ? sql.fragment`for update` : sql.fragment``}`)) ??
    undefined
  );
}

export interface NewReleaseRow {
  projectId: string;
  /** undefined: the next number. */
  id: string | undefined;
  title: string;
  files: readonly ReleaseFile[];
  vcsSource: VcsSource | undefined;
  creator: string;
  requestId: string | undefined;
}

/** The new release; undefined when its id or its request id is taken. */
export async function insertRelease(db: CommonQueryMethods, release: NewReleaseRow): Promise<ReleaseRow | undefined> {
  const id = release.id === undefined ? sql.fragment`default` : sql.fragment`${release.id}`;
  const vcs = release.vcsSource ? sql.jsonb(release.vcsSource) : null;
  return (
    (await db.maybeOne(sql.type(releaseRow)`
      insert into release (project_id, id, title, files, vcs_source, creator, request_id)
      values (${release.projectId}, ${id}, ${release.title}, ${sql.jsonb(release.files as never)}, ${vcs}, ${release.creator},
              ${release.requestId ?? null})
      on conflict do nothing
      returning ${columns}`)) ?? undefined
  );
}

export async function setReleaseTitle(db: CommonQueryMethods, projectId: string, id: string, title: string): Promise<ReleaseRow> {
  return db.one(sql.type(releaseRow)`
    update release set title = ${title}, update_time = now() where project_id = ${projectId} and id = ${id} returning ${columns}`);
}

export async function setReleaseState(db: CommonQueryMethods, projectId: string, id: string, state: ReleaseRow["state"]): Promise<ReleaseRow> {
  return db.one(sql.type(releaseRow)`
    update release set state = ${state}, update_time = now() where project_id = ${projectId} and id = ${id} returning ${columns}`);
}

export interface ReleaseListQuery {
  projectId: string;
  terms: readonly FilterTerm[];
  showDeleted: boolean;
  after: PageKey | undefined;
  limit: number;
}

const listedRelease = withPageTime(releaseRow);

/** A project's releases newest first, each with its page time. */
export async function listReleases(db: CommonQueryMethods, query: ReleaseListQuery): Promise<readonly (ReleaseRow & { pageTime: string })[]> {
  const conditions = [sql.fragment`project_id = ${query.projectId}`, ...query.terms.map(condition)];
  if (!query.showDeleted) conditions.push(sql.fragment`state = 'ACTIVE'`);
  if (query.after) conditions.push(afterNewest(query.after));
  return db.any(sql.type(listedRelease)`
    select ${columns}, ${pageTimeColumn} from release where ${sql.join(conditions, sql.fragment` and `)} ${newestFirst} limit ${query.limit}`);
}

function condition(term: FilterTerm): FragmentSqlToken {
  if (term.field === "create_time") return sql.fragment`create_time ${sqlOperator(term.op)} ${(term.value as Date).toISOString()}::timestamptz`;
  const value = String(term.value);
  if (term.op === ":") return sql.fragment`strpos(lower(title), ${value.toLowerCase()}) > 0`;
  return sql.fragment`title ${sqlOperator(term.op)} ${value}`;
}

/** The release a creator made with a request id in the last 24 hours (§0.6). */
export function findReleaseByRequest(db: CommonQueryMethods, creator: string, requestId: string): Promise<ReleaseRow | undefined> {
  return findByRequest(db, "release", columns, releaseRow, creator, requestId);
}

/** Frees a request id the creator used for a release more than 24 hours ago. */
export async function forgetOldReleaseRequest(db: CommonQueryMethods, creator: string, requestId: string): Promise<void> {
  await db.query(sql.unsafe`update release set request_id = null where ${oldRequestUse(creator, requestId)}`);
}
