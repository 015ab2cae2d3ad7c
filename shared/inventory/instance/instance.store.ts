// SQL on instance (contract §9.3). data_sources holds the instance's
// connections with their passwords sealed; the sync columns are written by
// the sync job.
import { sql, type CommonQueryMethods, type FragmentSqlToken } from "slonik";
import { z } from "zod";
import { afterNewest, type FilterTerm, newestFirst, type PageKey, pageTimeColumn, textIdRow, withPageTime } from "../../platform/index.ts";
import { storedDataSource } from "./data-sources.ts";

export const instanceRow = z
  .object({
    id: z.string(),
    title: z.string(),
    engine: z.enum(["POSTGRES", "MYSQL"]),
    environment: z.string(),
    data_sources: z.array(storedDataSource),
    state: z.enum(["ACTIVE", "DELETED"]),
    engine_version: z.string(),
    last_sync_time: z.coerce.date().nullable(),
    sync_state: z.enum(["OK", "FAILED"]).nullable(),
    sync_error: z.string(),
    creator: z.string(),
    etag: z.string(),
    create_time: z.coerce.date(),
    update_time: z.coerce.date(),
  })
  .transform((r) => ({
    id: r.id,
    title: r.title,
    engine: r.engine,
    /** The environment's id. */
    environment: r.environment,
    dataSources: r.data_sources,
    state: r.state,
    engineVersion: r.engine_version,
    lastSyncTime: r.last_sync_time ?? undefined,
    syncState: r.sync_state ?? undefined,
    syncError: r.sync_error,
    creator: r.creator,
    etag: r.etag,
    createTime: r.create_time,
    updateTime: r.update_time,
  }));

export type InstanceRow = z.infer<typeof instanceRow>;

/** The fields a writer sets. */
export type InstanceFields = Pick<InstanceRow, "title" | "environment" | "dataSources">;

const columns = sql.fragment`
  id, title, engine, environment, data_sources, state, engine_version, last_sync_time, sync_state, sync_error,
  creator, etag, create_time, update_time`;
const newEtag = sql.fragment`md5(random()::text || clock_timestamp()::text)`;

export async function findInstance(db: CommonQueryMethods, id: string, forUpdate = false): Promise<InstanceRow | undefined> {
  return (
    (await db.maybeOne(sql.type(instanceRow)`
      select ${columns} from instance where id = ${id} ${forUpdate ? sql.fragment`for update` : sql.fragment``}`)) ?? undefined
  );
}

/** The new instance, or undefined when the id is taken. */
export async function insertInstance(
  db: CommonQueryMethods,
  id: string,
  engine: InstanceRow["engine"],
  fields: InstanceFields & { engineVersion: string },
  creator: string,
): Promise<InstanceRow | undefined> {
  return (
    (await db.maybeOne(sql.type(instanceRow)`
      insert into instance (id, title, engine, environment, data_sources, engine_version, creator)
      values (${id}, ${fields.title}, ${engine}, ${fields.environment}, ${sql.jsonb(fields.dataSources)}, ${fields.engineVersion}, ${creator})
      on conflict (id) do nothing
      returning ${columns}`)) ?? undefined
  );
}

export async function updateInstance(db: CommonQueryMethods, id: string, fields: InstanceFields & { engineVersion: string }): Promise<InstanceRow> {
  return db.one(sql.type(instanceRow)`
    update instance set title = ${fields.title}, environment = ${fields.environment}, data_sources = ${sql.jsonb(fields.dataSources)},
      engine_version = ${fields.engineVersion}, etag = ${newEtag}, update_time = now()
    where id = ${id}
    returning ${columns}`);
}

export async function setInstanceState(db: CommonQueryMethods, id: string, state: InstanceRow["state"]): Promise<InstanceRow> {
  return db.one(sql.type(instanceRow)`
    update instance set state = ${state}, etag = ${newEtag}, update_time = now()
    where id = ${id}
    returning ${columns}`);
}

/** What a sync found: the server's version, or why it could not sync. */
export type InstanceSyncResult = { engineVersion: string } | { error: string };

export async function recordInstanceSync(db: CommonQueryMethods, id: string, result: InstanceSyncResult): Promise<void> {
  const set =
    "error" in result
      ? sql.fragment`sync_state = 'FAILED', sync_error = ${result.error}`
      : sql.fragment`sync_state = 'OK', sync_error = '', engine_version = ${result.engineVersion}`;
  await db.query(sql.unsafe`update instance set ${set}, last_sync_time = now() where id = ${id}`);
}

/** The ids of every active instance. */
export async function activeInstanceIds(db: CommonQueryMethods): Promise<readonly string[]> {
  return db.anyFirst(sql.type(textIdRow)`select id from instance where state = 'ACTIVE' order by id`);
}

export interface InstanceListQuery {
  terms: readonly FilterTerm[];
  showDeleted: boolean;
  /** The page key of the last instance served (newest-first.store.ts). */
  after: PageKey | undefined;
  limit: number;
}

const listedInstance = withPageTime(instanceRow);

/** Instances newest first, each with its page time. */
export async function listInstances(db: CommonQueryMethods, query: InstanceListQuery): Promise<readonly (InstanceRow & { pageTime: string })[]> {
  const conditions: FragmentSqlToken[] = query.terms.map(condition);
  if (!query.showDeleted && !query.terms.some((t) => t.field === "state")) conditions.push(sql.fragment`state = 'ACTIVE'`);
  if (query.after) conditions.push(afterNewest(query.after));
  const where = conditions.length > 0 ? sql.fragment`where ${sql.join(conditions, sql.fragment` and `)}` : sql.fragment``;
  return db.any(sql.type(listedInstance)`
    select ${columns}, ${pageTimeColumn} from instance ${where} ${newestFirst} limit ${query.limit}`);
}

const COLUMN: Record<string, FragmentSqlToken> = {
  engine: sql.fragment`engine`,
  environment: sql.fragment`environment`,
  title: sql.fragment`title`,
  state: sql.fragment`state`,
};

function condition(term: FilterTerm): FragmentSqlToken {
  const value = String(term.value);
  const column = COLUMN[term.field]!;
  if (term.field === "title" && term.op === ":") return sql.fragment`strpos(lower(title), ${value.toLowerCase()}) > 0`;
  return term.op === "!=" ? sql.fragment`${column} <> ${value}` : sql.fragment`${column} = ${value}`;
}
