// A test app with a project whose rollout's runs stay PENDING: a worker syncs
// the instance of its PostgreSQL targets and stops before the rollout is
// created, so the tests take the runs' locks and claims themselves.
import assert from "node:assert/strict";
import { createDb } from "../../shared/platform/db.ts";
import { createMetrics } from "../../shared/platform/metrics.ts";
import { createRollout } from "../../shared/change/pipeline/rollout-creation.ts";
import { rolloutName } from "../../shared/change/rollout/rollout-names.ts";
import { startWorker } from "../../worker/worker.ts";
import { startTestApp, type TestApp } from "./app.ts";
import { createInstanceOk, createPgTarget, eventually, pgAdminSource, testSecrets } from "./instances.ts";
import { quietLogger } from "./logger.ts";
import { restClient } from "./rest.ts";
import { signInFirstAdmin } from "./sessions.ts";
import { ADMIN } from "./users.ts";

type Json = Record<string, any>;

export interface PendingRuns {
  app: TestApp;
  /** One PENDING run per target database, in task order. */
  runIds: number[];
  /** An API call as the workspace admin, answering the body of a 200. */
  ok(method: string, path: string, body?: unknown): Promise<Json>;
  stop(): Promise<void>;
}

export async function startPendingRuns(project: string, count: number): Promise<PendingRuns> {
  const app = await startTestApp({ bootstrap: ADMIN });
  const rest = restClient(app.baseUrl);
  const token = await signInFirstAdmin(rest);
  const ok = async (method: string, path: string, body?: unknown) => {
    const reply = await rest<Json>(method, path, { token, body });
    assert.equal(reply.status, 200, `${method} ${path}: ${JSON.stringify(reply.body)}`);
    return reply.body;
  };
  const targets: Awaited<ReturnType<typeof createPgTarget>>[] = [];
  for (let i = 0; i < count; i++) targets.push(await createPgTarget());
  const stop = async () => {
    await app.close();
    for (const target of targets) await target.drop();
  };
  await ok("POST", `/v1/projects?projectId=${project}`, { requirePlanCheckSuccess: false });
  const workerDb = await createDb(app.database.url, quietLogger());
  const worker = await startWorker({ url: app.database.url, db: workerDb, logger: quietLogger(), secrets: testSecrets(), metrics: createMetrics({ threadPoolSize: 1 }), webhookAllowPrivate: false, externalUrl: undefined });
  const instance = `${project}-pg`;
  const resources = targets.map((t) => `instances/${instance}/databases/${t.name}`);
  try {
    await createInstanceOk(rest, token, instance, { engine: "POSTGRES", environment: "environments/test", dataSources: [pgAdminSource()] });
    for (const resource of resources) await eventually(async () => (await rest<Json>("GET", `/v1/${resource}`, { token })).body.syncState === "OK");
  } finally {
    await worker.stop();
    await workerDb.end();
  }
  await ok("POST", "/v1/databases:transfer", { databases: resources, targetProject: `projects/${project}` });
  const plan = await ok("POST", `/v1/projects/${project}/plans`, { title: "pending", specs: [{ changeDatabaseConfig: { targets: resources, statement: "create table pending (id int)" } }] });
  const planId = String(plan.name).split("/").at(-1)!;
  const created = await app.db.transaction((tx) => createRollout(tx, { projectId: project, planId, issueId: undefined, creator: "users/admin" }));
  const rollout = await ok("GET", `/v1/${rolloutName(created)}`);
  const runIds = rollout.tasks.map((task: Json) => Number(String(task.latestTaskRun).split("/").at(-1)));
  return { app, runIds, ok, stop };
}
