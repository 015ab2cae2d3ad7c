// Databases (contract §9.5): reading, updating labels, environment and
// project (bb.databases.update on the database's project and, for a project
// change, on the new one), and moving several to another project at once.
import type { CommonQueryMethods } from "slonik";
import type { IamSubject } from "../../identity/index.ts";
import { checkEnvironment } from "../instance/environment-check.ts";
import { aborted, failedPrecondition, invalidArgument, maskFields, notFound, quoted } from "../../platform/index.ts";
import { checkLabels } from "../project/project-fields.ts";
import { activeProject, parseProjectName, projectName } from "../project/projects.ts";
import { requireAccess } from "./database-access.ts";
import { databaseName, parseDatabaseName, type DatabaseRef } from "./database-name.ts";
import { findDatabase, moveDatabases, updateDatabaseFields, type DatabaseRow } from "./database.store.ts";

export interface DatabaseUpdate {
  ref: DatabaseRef;
  /** update_mask paths. */
  paths: readonly string[];
  /** The etag the writer read; empty writes unconditionally. */
  etag: string;
  labels: Record<string, string>;
  /** environments/<id>, or "" for the instance's. */
  environment: string;
  /** projects/<id> */
  project: string;
}

/** One database a transfer moved, and where it came from. */
export interface TransferredDatabase {
  row: DatabaseRow;
  fromProjectId: string;
}

const MASK = {
  resource: "database",
  editable: ["labels", "environment", "project"],
  outputOnly: ["name", "state", "sync_state", "sync_error", "last_sync_time", "schema_version", "engine", "create_time", "update_time", "etag"],
} as const;
const UPDATE = "bb.databases.update";

/** The database, deleted ones included; not_found when it does not exist. */
export async function getDatabase(db: CommonQueryMethods, ref: DatabaseRef, forUpdate = false): Promise<DatabaseRow> {
  const row = await findDatabase(db, ref, forUpdate);
  if (!row) throw notFound(`database "${databaseName(ref)}" does not exist`);
  return row;
}

export async function updateDatabase(tx: CommonQueryMethods, caller: IamSubject, update: DatabaseUpdate): Promise<DatabaseRow> {
  const fields = maskFields(update.paths, MASK);
  await requireAccess(tx, caller, UPDATE, databaseName(update.ref));
  const targetProject = fields.has("project") ? parseProjectName(update.project, "database.project") : undefined;
  if (targetProject !== undefined) await requireAccess(tx, caller, UPDATE, projectName(targetProject));
  const current = await getDatabase(tx, update.ref, true);
  if (current.state !== "ACTIVE") throw failedPrecondition(`database "${databaseName(update.ref)}" is deleted`);
  if (update.etag && update.etag !== current.etag) {
    throw aborted(`database "${databaseName(update.ref)}" changed since it was read (etag ${update.etag} is stale); read it again and retry`);
  }
  if (targetProject !== undefined && targetProject !== current.projectId) await activeProject(tx, targetProject);
  const ownEnvironment = !fields.has("environment")
    ? current.ownEnvironment
    : update.environment === ""
      ? undefined
      : await checkEnvironment(tx, update.environment, "database.environment");
  return updateDatabaseFields(tx, update.ref, {
    projectId: targetProject ?? current.projectId,
    ownEnvironment,
    labels: fields.has("labels") ? checkLabels(update.labels, "database.labels") : current.labels,
  });
}

/**
 * Moves the databases to the target project, all or none: the caller needs
 * bb.databases.update on each database's project and on the target.
 */
export async function transferDatabases(tx: CommonQueryMethods, caller: IamSubject, names: readonly string[], target: string): Promise<TransferredDatabase[]> {
  if (names.length === 0) throw invalidArgument("databases: name at least one database");
  const refs = names.map((name, i) => parseDatabaseName(name, `databases[${i}]`));
  refs.forEach((ref, i) => {
    if (refs.findIndex((r) => r.instanceId === ref.instanceId && r.name === ref.name) !== i) throw invalidArgument(`databases[${i}]: ${quoted(names[i]!)} is listed twice`);
  });
  const projectId = parseProjectName(target, "target_project");
  for (const ref of refs) await requireAccess(tx, caller, UPDATE, databaseName(ref));
  await requireAccess(tx, caller, UPDATE, projectName(projectId));
  await activeProject(tx, projectId);
  const before: DatabaseRow[] = [];
  for (const ref of refs) before.push(await getDatabase(tx, ref, true));
  await moveDatabases(tx, refs, projectId);
  const moved: TransferredDatabase[] = [];
  for (const row of before) moved.push({ row: await getDatabase(tx, row), fromProjectId: row.projectId });
  return moved;
}
