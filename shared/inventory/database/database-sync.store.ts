// SQL of instance sync on instance_database (contract §9.3): the databases
// found on the server are added (into the default project) or revived, the
// ones gone are marked DELETED, and each database's metadata is recorded.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import type { DatabaseMetadata } from "../engine/metadata.ts";
import type { DatabaseRef } from "./database-name.ts";

const newEtag = sql.fragment`md5(random()::text || clock_timestamp()::text)`;

const databaseNameRow = z.object({ name: z.string() });

/**
 * Makes the instance's databases those the server lists: new names are
 * added, DELETED ones listed again come back, ACTIVE ones not listed are
 * marked DELETED. Answers the names added or revived.
 */
export async function reconcileDatabases(db: CommonQueryMethods, instanceId: string, names: readonly string[]): Promise<readonly string[]> {
  const listed = sql.array(names, "text");
  const appeared = await db.anyFirst(sql.type(databaseNameRow)`
    insert into instance_database (instance_id, name)
    select ${instanceId}, listed.name from unnest(${listed}) as listed (name)
    on conflict (instance_id, name) do update set state = 'ACTIVE', etag = ${newEtag}, update_time = now()
      where instance_database.state = 'DELETED'
    returning name`);
  await db.query(sql.unsafe`
    update instance_database set state = 'DELETED', etag = ${newEtag}, update_time = now()
    where instance_id = ${instanceId} and state = 'ACTIVE' and name <> all(${listed})`);
  return appeared;
}

/** A deleted instance's databases are deleted with it. */
export async function markInstanceDatabasesDeleted(db: CommonQueryMethods, instanceId: string): Promise<void> {
  await db.query(sql.unsafe`
    update instance_database set state = 'DELETED', etag = ${newEtag}, update_time = now()
    where instance_id = ${instanceId} and state = 'ACTIVE'`);
}

/** What reading one database's schema gave: its metadata, or why it could not be read. */
export type DatabaseSyncResult = { metadata: DatabaseMetadata } | { error: string };

export async function recordDatabaseSync(db: CommonQueryMethods, ref: DatabaseRef, result: DatabaseSyncResult): Promise<void> {
  const set =
    "error" in result
      ? sql.fragment`sync_state = 'FAILED', sync_error = ${result.error}`
      : sql.fragment`sync_state = 'OK', sync_error = '', metadata = ${sql.jsonb(result.metadata as never)}`;
  await db.query(sql.unsafe`
    update instance_database set ${set}, last_sync_time = now()
    where instance_id = ${ref.instanceId} and name = ${ref.name}`);
}
