// SQL on instance_database (contract §9.5): reading databases with what they
// take from their instance (engine, environment), listing them in
// (instance, name) order, and the writes of UpdateDatabase and transfers.
import { sql, type CommonQueryMethods, type FragmentSqlToken } from "slonik";
import { z } from "zod";
import type { DatabaseMetadata } from "../engine/metadata.ts";
import type { DatabaseRef } from "./database-name.ts";

export const databaseRow = z
  .object({
    instance_id: z.string(),
    name: z.string(),
    project_id: z.string(),
    environment: z.string().nullable(),
    instance_environment: z.string(),
    engine: z.enum(["POSTGRES", "MYSQL"]),
    labels: z.record(z.string(), z.string()),
    state: z.enum(["ACTIVE", "DELETED"]),
    sync_state: z.enum(["OK", "FAILED"]).nullable(),
    sync_error: z.string(),
    last_sync_time: z.coerce.date().nullable(),
    schema_version: z.string(),
    etag: z.string(),
    create_time: z.coerce.date(),
    update_time: z.coerce.date(),
  })
  .transform((r) => ({
    instanceId: r.instance_id,
    name: r.name,
    projectId: r.project_id,
    /** The database's own environment id; undefined = the instance's applies. */
    ownEnvironment: r.environment ?? undefined,
    /** The environment id that applies: its own, else the instance's. */
    environment: r.environment ?? r.instance_environment,
    engine: r.engine,
    labels: r.labels,
    state: r.state,
    syncState: r.sync_state ?? undefined,
    syncError: r.sync_error,
    lastSyncTime: r.last_sync_time ?? undefined,
    schemaVersion: r.schema_version,
    etag: r.etag,
    createTime: r.create_time,
    updateTime: r.update_time,
  }));

export type DatabaseRow = z.infer<typeof databaseRow>;

const columns = sql.fragment`
  d.instance_id, d.name, d.project_id, d.environment, i.environment as instance_environment, i.engine, d.labels, d.state,
  d.sync_state, d.sync_error, d.last_sync_time, d.schema_version, d.etag, d.create_time, d.update_time`;
const joined = sql.fragment`instance_database d join instance i on i.id = d.instance_id`;
const newEtag = sql.fragment`md5(random()::text || clock_timestamp()::text)`;

export async function findDatabase(db: CommonQueryMethods, ref: DatabaseRef, forUpdate = false): Promise<DatabaseRow | undefined> {
  return (
    (await db.maybeOne(sql.type(databaseRow)`
      select ${columns} from ${joined} where d.instance_id = ${ref.instanceId} and d.name = ${ref.name}
      ${forUpdate ? sql.fragment`for update of d` : sql.fragment``}`)) ?? undefined
  );
}

export interface DatabaseListQuery {
  /** SQL conditions on `d` (the database) and `i` (its instance). */
  conditions: readonly FragmentSqlToken[];
  showDeleted: boolean;
  /** [instance id, name] of the last database served. */
  after: [string, string] | undefined;
  limit: number;
}

/** Databases ordered by instance, then name. */
export async function listDatabases(db: CommonQueryMethods, query: DatabaseListQuery): Promise<readonly DatabaseRow[]> {
  const conditions = [...query.conditions];
  if (!query.showDeleted) conditions.push(sql.fragment`d.state = 'ACTIVE'`);
  if (query.after) conditions.push(sql.fragment`(d.instance_id, d.name) > (${query.after[0]}, ${query.after[1]})`);
  const where = conditions.length > 0 ? sql.fragment`where ${sql.join(conditions, sql.fragment` and `)}` : sql.fragment``;
  return db.any(sql.type(databaseRow)`
    select ${columns} from ${joined} ${where} order by d.instance_id, d.name limit ${query.limit}`);
}

export interface DatabaseFields {
  projectId: string;
  /** Its own environment id; undefined = the instance's. */
  ownEnvironment: string | undefined;
  labels: Record<string, string>;
}

export async function updateDatabaseFields(db: CommonQueryMethods, ref: DatabaseRef, fields: DatabaseFields): Promise<DatabaseRow> {
  await db.query(sql.unsafe`
    update instance_database set project_id = ${fields.projectId}, environment = ${fields.ownEnvironment ?? null},
      labels = ${sql.jsonb(fields.labels)}, etag = ${newEtag}, update_time = now()
    where instance_id = ${ref.instanceId} and name = ${ref.name}`);
  return (await findDatabase(db, ref))!;
}

/** Moves the databases to the project. */
export async function moveDatabases(db: CommonQueryMethods, refs: readonly DatabaseRef[], projectId: string): Promise<void> {
  await db.query(sql.unsafe`
    update instance_database d set project_id = ${projectId}, etag = ${newEtag}, update_time = now()
    from unnest(${sql.array(refs.map((r) => r.instanceId), "text")}, ${sql.array(refs.map((r) => r.name), "text")}) as moved (instance_id, name)
    where d.instance_id = moved.instance_id and d.name = moved.name`);
}

const storedMetadata = z.object({ metadata: z.custom<DatabaseMetadata>((value) => typeof value === "object" && value !== null) });

/** The schema metadata the last successful sync recorded; undefined before the first. */
export async function findDatabaseMetadata(db: CommonQueryMethods, ref: DatabaseRef): Promise<DatabaseMetadata | undefined> {
  const row = await db.maybeOne(sql.type(storedMetadata)`
    select metadata from instance_database
    where instance_id = ${ref.instanceId} and name = ${ref.name} and metadata is not null`);
  return row?.metadata;
}
