// A database's schema (contract §9.5): the DDL read live from its instance,
// the metadata its last sync recorded, and a sync of that one database now.
import type { CommonQueryMethods } from "slonik";
import type { DatabaseMetadata } from "../engine/metadata.ts";
import { syncOneDatabase } from "../instance/instance-sync.ts";
import { withTarget } from "../instance/instance-target.ts";
import { activeInstance } from "../instance/instances.ts";
import { failedPrecondition, invalidArgument, quoted, type SecretBox } from "../../platform/index.ts";
import { databaseName, parseDatabaseName, type DatabaseRef } from "./database-name.ts";
import { findDatabaseMetadata, type DatabaseRow } from "./database.store.ts";
import { activeDatabase, databaseConnection } from "./database-target.ts";
import { getDatabase } from "./databases.ts";

/** The database a `<database name>/<part>` name (…/schema, …/metadata) belongs to. */
export function parseDatabasePartName(name: string, part: string, field: string): DatabaseRef {
  const suffix = `/${part}`;
  if (!name.endsWith(suffix)) throw invalidArgument(`${field}: ${quoted(name)} is not a valid name; use instances/<instance_id>/databases/<database_name>${suffix}`);
  return parseDatabaseName(name.slice(0, -suffix.length), field);
}

/** The database's DDL, read from its instance through the ADMIN data source. */
export async function readDatabaseSchema(db: CommonQueryMethods, secrets: SecretBox, ref: DatabaseRef): Promise<string> {
  return withTarget(await databaseConnection(db, secrets, ref), (target) => target.schemaDdl(ref.name));
}

/** The metadata of the database's last successful sync; failed_precondition before the first. */
export async function readDatabaseMetadata(db: CommonQueryMethods, ref: DatabaseRef): Promise<DatabaseMetadata> {
  await getDatabase(db, ref);
  const metadata = await findDatabaseMetadata(db, ref);
  if (!metadata) throw failedPrecondition(`database "${databaseName(ref)}" has no metadata yet; sync it first`);
  return metadata;
}

/** Reads the database's metadata from its instance now; a failure is recorded on the database, not thrown. */
export async function syncDatabase(tx: CommonQueryMethods, secrets: SecretBox, ref: DatabaseRef): Promise<DatabaseRow> {
  await activeDatabase(tx, ref);
  await syncOneDatabase(tx, secrets, await activeInstance(tx, ref.instanceId), ref.name);
  return getDatabase(tx, ref);
}
