// A server and a worker executing task runs, one project whose databases are
// throw-away PostgreSQL databases on the tests' server (instance in the
// AUTOMATIC `test` environment, so a rollout's only stage starts at once),
// rollouts made as an approval makes them, and the REST calls the tests
// make on them.
import assert from "node:assert/strict";
import { createDb, type Db } from "../../shared/platform/db.ts";
import { createMetrics } from "../../shared/platform/metrics.ts";
import { createRollout } from "../../shared/change/pipeline/rollout-creation.ts";
import { rolloutName } from "../../shared/change/rollout/rollout-names.ts";
import { startWorker, type Worker } from "../../worker/worker.ts";
import { startTestApp, type TestApp } from "./app.ts";
import { adminQuery } from "./db.ts";
import { createInstanceOk, createPgTarget, eventually, pgAdminSource, testSecrets } from "./instances.ts";
import { quietLogger } from "./logger.ts";
import { restClient } from "./rest.ts";
import { signInFirstAdmin } from "./sessions.ts";
import { ADMIN } from "./users.ts";

export type Json = Record<string, any>;
export type PgTarget = Awaited<ReturnType<typeof createPgTarget>> & { resource: string };

const FINAL = new Set(["DONE", "FAILED", "CANCELED"]);

export class RolloutHarness {
  app!: TestApp;
  private rest!: ReturnType<typeof restClient>;
  private token = "";
  private workerDb!: Db;
  private worker!: Worker;
  private readonly targets: PgTarget[] = [];
  readonly project: string;

  constructor(project: string) {
    this.project = project;
  }

  /** Starts everything, with `databases` target databases (each created with the `setup` statements). */
  async start(databases: number, setup: string[] = []): Promise<PgTarget[]> {
    this.app = await startTestApp({ bootstrap: ADMIN });
    this.rest = restClient(this.app.baseUrl);
    this.token = await signInFirstAdmin(this.rest);
    await this.ok("POST", `/v1/projects?projectId=${this.project}`, { requirePlanCheckSuccess: false });
    this.workerDb = await createDb(this.app.database.url, quietLogger(), { maxPoolSize: 10 });
    const metrics = createMetrics({ threadPoolSize: 4 });
    this.worker = await startWorker({ url: this.app.database.url, db: this.workerDb, logger: quietLogger(), secrets: testSecrets(), metrics, webhookAllowPrivate: false, externalUrl: undefined });
    for (let i = 0; i < databases; i++) this.targets.push(Object.assign(await createPgTarget(setup), { resource: "" }));
    const instance = `${this.project}-pg`;
    await createInstanceOk(this.rest, this.token, instance, { engine: "POSTGRES", environment: "environments/test", dataSources: [pgAdminSource()] });
    for (const target of this.targets) {
      target.resource = `instances/${instance}/databases/${target.name}`;
      await eventually(async () => (await this.call("GET", `/v1/${target.resource}`)).body.syncState === "OK");
    }
    await this.ok("POST", "/v1/databases:transfer", { databases: this.targets.map((t) => t.resource), targetProject: `projects/${this.project}` });
    return this.targets;
  }

  async stop(): Promise<void> {
    await this.worker?.stop();
    await this.workerDb?.end();
    await this.app?.close();
    for (const target of this.targets) await target.drop();
  }

  call(method: string, path: string, body?: unknown) {
    return this.rest<Json>(method, path, { token: this.token, body });
  }

  async ok(method: string, path: string, body?: unknown): Promise<Json> {
    const reply = await this.call(method, path, body);
    assert.equal(reply.status, 200, `${method} ${path}: ${JSON.stringify(reply.body)}`);
    return reply.body;
  }

  /** Writes fields of a setting (updateMask `*`: the whole value). */
  setting(name: string, value: Json): Promise<Json> {
    return this.ok("PATCH", `/v1/settings/${name}?updateMask=*`, { value });
  }

  /** A plan of one spec on `target`, once its check run has finished (its dry run runs the script too). */
  async checkedPlan(target: PgTarget, statement: string): Promise<string> {
    const plan = await this.ok("POST", `/v1/projects/${this.project}/plans`, { title: "change", specs: [{ changeDatabaseConfig: { targets: [target.resource], statement } }] });
    await eventually(async () => (await this.ok("GET", `/v1/${plan.name}/planCheckRuns`)).planCheckRuns?.[0]?.status !== "RUNNING");
    return String(plan.name).split("/").at(-1)!;
  }

  /** The rollout of a plan, made as an approval makes it (its stage starts and its task run is dispatched at commit). */
  async rollout(planId: string): Promise<Json> {
    const created = await this.app.db.transaction((tx) => createRollout(tx, { projectId: this.project, planId, issueId: undefined, creator: "users/admin" }));
    return this.ok("GET", `/v1/${rolloutName(created)}`);
  }

  /** The task's runs, newest first. */
  async runs(task: Json): Promise<Json[]> {
    return (await this.ok("GET", `/v1/${task.name}/taskRuns`)).taskRuns ?? [];
  }

  async logOf(run: Json): Promise<Json[]> {
    return (await this.ok("GET", `/v1/${run.name}/log`)).entries ?? [];
  }

  /** Waits for the task's newest run to reach a state (or any final state), and answers it. */
  async runIn(task: Json, state?: string, timeoutMs = 20_000): Promise<Json> {
    let run: Json = {};
    await eventually(async () => {
      run = (await this.runs(task))[0] ?? {};
      return state ? run.state === state : FINAL.has(run.state);
    }, timeoutMs);
    return run;
  }

  /** The task as GetRollout shows it. */
  async task(task: Json): Promise<Json> {
    const rollout = String(task.name).replace(/\/tasks\/\d+$/, "");
    return (await this.ok("GET", `/v1/${rollout}`)).tasks.find((t: Json) => t.name === task.name);
  }

  /** The run's job (waiting or being worked on), or undefined when it has none. */
  async jobOf(run: Json): Promise<{ runAt: Date } | undefined> {
    const id = String(run.name).split("/").at(-1);
    const { rows } = await adminQuery(`select run_at from graphile_worker._private_jobs where key = 'taskRun:${id}'`, this.app.database.url);
    return rows[0] ? { runAt: rows[0].run_at as Date } : undefined;
  }

  /**
   * Whether the run was dispatched to start now: it has a job that is due,
   * or has left PENDING (a job is removed only after its run started).
   * Checked right after a change, it tells the change's own dispatch from
   * the reconciler's later one.
   */
  async dispatched(run: Json): Promise<boolean> {
    const job = await this.jobOf(run);
    return (job !== undefined && job.runAt.getTime() <= Date.now()) || (await this.ok("GET", `/v1/${run.name}`)).state !== "PENDING";
  }
}

/** A statement that runs while the target's `hold` row says so (polling every 50 ms); a dry run with `hold` off passes at once. */
export const WAIT_WHILE_HELD = "do $$ begin while (select held from hold) loop perform pg_sleep(0.05); end loop; end $$";

/** The table WAIT_WHILE_HELD reads, created released. */
export const HOLD_TABLE = "create table hold (held boolean not null); insert into hold values (false)";
