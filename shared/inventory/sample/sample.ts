// The quick start's sample (embedded store only): project `sample` with the
// instances sample-test and sample-prod, one per default environment, whose
// databases live in the embedded PostgreSQL. Created once, on the first
// start; later starts only re-point the instances at the embedded server,
// whose port changes from start to start. A deleted sample stays deleted.
import { newCallAudit, recordAudit, SYSTEM_ACTOR } from "../../governance/index.ts";
import { reconcileDatabases } from "../database/database-sync.store.ts";
import { moveDatabases } from "../database/database.store.ts";
import type { DataSourceDraft } from "../instance/data-sources.ts";
import { findInstance } from "../instance/instance.store.ts";
import { createInstance, instanceName, updateInstance } from "../instance/instances.ts";
import type { Db, Logger, SecretBox, Tx } from "../../platform/index.ts";
import { findProject } from "../project/project.store.ts";
import { createProject, projectName } from "../project/projects.ts";
import { prepareSampleServer, SAMPLE_DATABASES, type SampleServer } from "./sample-server.ts";

export const SAMPLE_PROJECT = "sample";

export interface QuickStart {
  db: Db;
  secrets: SecretBox;
  logger: Logger;
  /** The embedded server: its superuser connection and the data folder. */
  embedded: { superuserUrl: string; dataDir: string };
  /** Owner of the sample project: the bootstrap administrator. */
  ownerLoginId: string;
}

export async function seedQuickStart(quickStart: QuickStart): Promise<void> {
  const server = await prepareSampleServer(quickStart.embedded.superuserUrl, quickStart.embedded.dataDir);
  await quickStart.db.transaction(async (tx) => {
    if (await findProject(tx, SAMPLE_PROJECT)) return repoint(tx, quickStart.secrets, server);
    await createSample(tx, quickStart, server);
    quickStart.logger.info(`created the sample project ${projectName(SAMPLE_PROJECT)} with instances sample-test and sample-prod`);
  });
}

const instanceId = (environment: string) => `sample-${environment}`;

function dataSource(server: SampleServer, sample: (typeof SAMPLE_DATABASES)[number]): DataSourceDraft {
  return {
    id: "admin",
    type: "ADMIN",
    host: server.host,
    port: server.port,
    username: sample.role,
    password: server.password,
    database: sample.database,
    sslMode: "DISABLE",
    sslCa: "",
    extraOptions: {},
  };
}

async function createSample(tx: Tx, quickStart: QuickStart, server: SampleServer): Promise<void> {
  const audit = { ...newCallAudit("bb.projects.create"), tx };
  await createProject(audit, quickStart.ownerLoginId, SAMPLE_PROJECT, {
    title: "Sample project",
    key: "SAM",
    labels: {},
    allowSelfApproval: undefined,
    parallelTasksPerRollout: 0,
    lockTimeout: undefined,
    statementTimeout: undefined,
    requirePlanCheckSuccess: undefined,
  });
  const created = [{ action: audit.action, resource: projectName(SAMPLE_PROJECT), detail: { sample: true } }, ...audit.extra];
  for (const sample of SAMPLE_DATABASES) {
    const id = instanceId(sample.environment);
    await createInstance(tx, quickStart.secrets, SYSTEM_ACTOR, id, {
      title: `Sample ${sample.environment}`,
      engine: "POSTGRES",
      environment: `environments/${sample.environment}`,
      dataSources: [dataSource(server, sample)],
    }, false);
    // The sample databases belong to the sample project from the start (sync keeps them there).
    await reconcileDatabases(tx, id, [sample.database]);
    await moveDatabases(tx, [{ instanceId: id, name: sample.database }], SAMPLE_PROJECT);
    created.push({ action: "bb.instances.create", resource: instanceName(id), detail: { sample: true } });
  }
  for (const entry of created) await recordAudit(tx, { actor: SYSTEM_ACTOR, ...entry });
}

/** Points the sample instances that still use a sample role at the embedded server of this start. */
async function repoint(tx: Tx, secrets: SecretBox, server: SampleServer): Promise<void> {
  for (const sample of SAMPLE_DATABASES) {
    const id = instanceId(sample.environment);
    const instance = await findInstance(tx, id);
    const source = instance?.dataSources.find((s) => s.type === "ADMIN");
    if (instance?.state !== "ACTIVE" || source?.username !== sample.role || (source.host === server.host && source.port === server.port)) continue;
    await updateInstance(tx, secrets, {
      id,
      draft: { title: instance.title, engine: "POSTGRES", environment: `environments/${instance.environment}`, dataSources: [dataSource(server, sample)] },
      paths: ["data_sources"],
      etag: "",
      validateOnly: false,
    });
  }
}
