// Instances (contract §9.3): reading, creating and updating (connections
// tested first; validate-only stops there), soft deletion (with the
// instance's databases) and restoring, and asking for a sync.
import type { CommonQueryMethods } from "slonik";
import { markInstanceDatabasesDeleted } from "../database/database-sync.store.ts";
import type { Engine } from "../engine/target.ts";
import {
  aborted,
  alreadyExists,
  failedPrecondition,
  invalidArgument,
  maskFields,
  notFound,
  parseResourceName,
  quoted,
  RESOURCE_ID_PATTERN,
  type SecretBox,
} from "../../platform/index.ts";
import { environmentName } from "../../governance/index.ts";
import { checkedDataSources, type DataSourceDraft } from "./data-sources.ts";
import { checkEnvironment } from "./environment-check.ts";
import { enqueueInstanceSync } from "./instance-sync-jobs.ts";
import { testDataSources } from "./instance-target.ts";
import { findInstance, insertInstance, setInstanceState, updateInstance as updateRow, type InstanceFields, type InstanceRow } from "./instance.store.ts";

/** An instance as a request writes it. */
export interface InstanceDraft {
  title: string;
  engine: Engine | undefined;
  /** environments/<id> */
  environment: string;
  dataSources: DataSourceDraft[];
}

export interface InstanceUpdate {
  id: string;
  draft: InstanceDraft;
  /** update_mask paths. */
  paths: readonly string[];
  /** The etag the writer read; empty writes unconditionally. */
  etag: string;
  validateOnly: boolean;
}

const MASK = {
  resource: "instance",
  editable: ["title", "environment", "data_sources"],
  outputOnly: ["name", "state", "engine_version", "last_sync_time", "sync_state", "sync_error", "creator", "create_time", "update_time", "etag"],
} as const;

export function instanceName(id: string): string {
  return `instances/${id}`;
}

export function parseInstanceName(name: string, field: string): string {
  return parseResourceName(name, "instances", field);
}

/** The instance, deleted ones included; not_found when it does not exist. */
export async function getInstance(db: CommonQueryMethods, id: string): Promise<InstanceRow> {
  const row = await findInstance(db, id);
  if (!row) throw notFound(`instance "${instanceName(id)}" does not exist`);
  return row;
}

/** The instance, which must be ACTIVE. */
export async function activeInstance(db: CommonQueryMethods, id: string, forUpdate = false): Promise<InstanceRow> {
  const row = await findInstance(db, id, forUpdate);
  if (!row) throw notFound(`instance "${instanceName(id)}" does not exist`);
  if (row.state !== "ACTIVE") throw failedPrecondition(`instance "${instanceName(id)}" is deleted; undelete it first`);
  return row;
}

/**
 * Checks the draft and tests its connections; unless validate-only, stores
 * the instance and queues its first sync. A validate-only call answers the
 * instance as it would be stored.
 */
export async function createInstance(
  tx: CommonQueryMethods,
  secrets: SecretBox,
  creator: string,
  id: string,
  draft: InstanceDraft,
  validateOnly: boolean,
): Promise<InstanceRow> {
  if (!RESOURCE_ID_PATTERN.test(id)) {
    throw invalidArgument(`instance_id: ${quoted(id)} is not a valid instance id; it starts with a lower-case letter and has up to 63 lower-case letters, digits and hyphens`);
  }
  if (!draft.engine) throw invalidArgument("instance.engine is required: POSTGRES or MYSQL");
  const engine = draft.engine;
  const fields: InstanceFields = {
    title: draft.title.trim() || id,
    environment: await checkEnvironment(tx, draft.environment, "instance.environment"),
    dataSources: checkedDataSources(engine, draft.dataSources, secrets),
  };
  if (await findInstance(tx, id)) throw alreadyExists(`instance "${instanceName(id)}" already exists`);
  const engineVersion = await testDataSources(engine, fields.dataSources, secrets);
  if (validateOnly) return unsavedInstance(id, engine, { ...fields, engineVersion }, creator);
  const row = await insertInstance(tx, id, engine, { ...fields, engineVersion }, creator);
  if (!row) throw alreadyExists(`instance "${instanceName(id)}" already exists`);
  await enqueueInstanceSync(tx, id);
  return row;
}

export async function updateInstance(tx: CommonQueryMethods, secrets: SecretBox, update: InstanceUpdate): Promise<InstanceRow> {
  if (update.paths.some((p) => p.replace(/^instance\./, "") === "engine")) throw invalidArgument("update_mask: field engine cannot change; create another instance");
  const fields = maskFields(update.paths, MASK);
  const current = await activeInstance(tx, update.id, true);
  if (update.etag && update.etag !== current.etag) {
    throw aborted(`instance "${instanceName(current.id)}" changed since it was read (etag ${update.etag} is stale); read it again and retry`);
  }
  const draft = update.draft;
  const next: InstanceFields = {
    title: fields.has("title") ? draft.title.trim() || current.id : current.title,
    environment: fields.has("environment") ? await checkEnvironment(tx, draft.environment, "instance.environment") : current.environment,
    dataSources: fields.has("data_sources") ? checkedDataSources(current.engine, draft.dataSources, secrets, current.dataSources) : current.dataSources,
  };
  const engineVersion = fields.has("data_sources") ? await testDataSources(current.engine, next.dataSources, secrets) : current.engineVersion;
  if (update.validateOnly) return { ...current, ...next, engineVersion };
  const row = await updateRow(tx, current.id, { ...next, engineVersion });
  if (fields.has("data_sources")) await enqueueInstanceSync(tx, current.id);
  return row;
}

export async function deleteInstance(tx: CommonQueryMethods, id: string): Promise<void> {
  await activeInstance(tx, id, true);
  await setInstanceState(tx, id, "DELETED");
  await markInstanceDatabasesDeleted(tx, id);
}

/** Restores the instance and queues a sync, which restores the databases still on the server. */
export async function undeleteInstance(tx: CommonQueryMethods, id: string): Promise<InstanceRow> {
  const row = await findInstance(tx, id, true);
  if (!row) throw notFound(`instance "${instanceName(id)}" does not exist`);
  if (row.state === "ACTIVE") throw failedPrecondition(`instance "${instanceName(id)}" is not deleted`);
  const environment = environmentName(row.environment);
  try {
    await checkEnvironment(tx, environment, "instance.environment");
  } catch {
    throw failedPrecondition(`instance "${instanceName(id)}" is in environment "${environment}", which no longer exists; add it to the ENVIRONMENT setting first`);
  }
  const restored = await setInstanceState(tx, id, "ACTIVE");
  await enqueueInstanceSync(tx, id);
  return restored;
}

/** Queues a sync of the active instance and answers it as it stands. */
export async function requestInstanceSync(tx: CommonQueryMethods, id: string): Promise<InstanceRow> {
  const row = await activeInstance(tx, id);
  await enqueueInstanceSync(tx, id);
  return row;
}

function unsavedInstance(id: string, engine: Engine, fields: InstanceFields & { engineVersion: string }, creator: string): InstanceRow {
  const now = new Date();
  return {
    id,
    engine,
    ...fields,
    state: "ACTIVE",
    lastSyncTime: undefined,
    syncState: undefined,
    syncError: "",
    creator,
    etag: "",
    createTime: now,
    updateTime: now,
  };
}
