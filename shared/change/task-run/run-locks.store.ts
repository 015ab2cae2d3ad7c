// The advisory locks of one task run's execution (contract §12.4, §12.6),
// held on a connection of its own for as long as the worker handles the run:
// the run's lock (so the run never executes twice at once, and a RUNNING run
// whose lock is free has lost its worker) and its target database's lock
// (one change at a time per database). Closing the connection, or losing it,
// releases both. The reconciler takes a run's lock for a transaction to find
// runs nobody holds.
import pg from "pg";
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import { SESSION_KEEPALIVE_OPTIONS, TARGET_DATABASE_LOCK_CLASS, TASK_RUN_LOCK_CLASS } from "../../platform/index.ts";
import { storedDataSource } from "../../inventory/index.ts";
import { releaseFileColumn } from "../rollout/task.store.ts";

const executableRun = z
  .object({
    id: z.coerce.number(),
    task_id: z.coerce.number(),
    project_id: z.string(),
    rollout_id: z.string(),
    plan_id: z.string(),
    issue_id: z.string().nullable(),
    first_statement: z.number(),
    creator: z.string(),
    stage_id: z.string(),
    instance_id: z.string(),
    database_name: z.string(),
    type: z.enum(["DATABASE_MIGRATE", "DATABASE_DATA_UPDATE"]),
    statement: z.string(),
    release_file: releaseFileColumn.nullable(),
    lock_timeout_ms: z.coerce.number(),
    statement_timeout_ms: z.coerce.number(),
    slots_limited: z.boolean(),
    engine: z.enum(["POSTGRES", "MYSQL"]),
    instance_state: z.enum(["ACTIVE", "DELETED"]),
    data_sources: z.array(storedDataSource),
  })
  .transform((r) => ({
    id: r.id,
    taskId: r.task_id,
    projectId: r.project_id,
    rolloutId: r.rollout_id,
    planId: r.plan_id,
    issueId: r.issue_id ?? undefined,
    firstStatement: r.first_statement,
    creator: r.creator,
    stageId: r.stage_id,
    instanceId: r.instance_id,
    databaseName: r.database_name,
    type: r.type,
    statement: r.statement,
    releaseFile: r.release_file ?? undefined,
    lockTimeoutMs: r.lock_timeout_ms,
    statementTimeoutMs: r.statement_timeout_ms,
    /** The project limited how many tasks a rollout runs at once when the run was locked. */
    slotsLimited: r.slots_limited,
    /** The instance as the run was locked: how the worker reaches the target. */
    instance: { id: r.instance_id, engine: r.engine, state: r.instance_state, dataSources: r.data_sources },
  }));

/** A PENDING run as executing it needs it (firstStatement: a continuation skips the statements applied before; a timeout of 0 = no limit). */
export type ExecutableRun = z.infer<typeof executableRun>;

export interface LockedRun {
  run: ExecutableRun;
  /** The target database's lock was taken with the run's (one change at a time per database). */
  targetLocked: boolean;
}

/** Lock keys are int4: run ids wrap (two runs 2^31 apart share a key, which only makes one wait). */
const RUN_KEY_MODULUS = 2 ** 31;

/**
 * The worker process's lock connections: a run leases one for as long as it
 * is handled, and gives it back with every advisory lock released, so that a
 * run does not pay for a new connection (the dispatch latency of §12.4). At
 * most MAX_IDLE wait; a connection that failed is never given back. The lock
 * of a run that ended guards nothing any more (a final run never runs
 * again): it is left to the connection's next lock statement to release,
 * which saves a round trip per run.
 */
export class LockConnections {
  private readonly url: string;
  private readonly idle: pg.Client[] = [];
  private closed = false;

  constructor(url: string) {
    this.url = url;
  }

  async lease(): Promise<pg.Client> {
    const client = this.idle.pop();
    if (client) {
      client.removeAllListeners("error");
      client.removeAllListeners("end");
      return client;
    }
    const fresh = new pg.Client({
      connectionString: this.url,
      application_name: "svc task run",
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      options: SESSION_KEEPALIVE_OPTIONS,
    });
    await fresh.connect();
    return fresh;
  }

  /**
   * Takes a healthy connection back, its advisory locks released (or, with
   * `onlyEndedRunLocked`, left to the next lock statement); ends it otherwise.
   */
  async giveBack(client: pg.Client, healthy: boolean, onlyEndedRunLocked: boolean): Promise<void> {
    client.removeAllListeners("error");
    client.removeAllListeners("end");
    if (healthy && !this.closed && this.idle.length < MAX_IDLE) {
      try {
        if (!onlyEndedRunLocked) await client.query({ name: "run_locks.unlock_all", text: "select pg_advisory_unlock_all()" });
        client.on("error", () => this.forget(client)); // a connection that fails while idle is dropped
        client.on("end", () => this.forget(client));
        this.idle.push(client);
        return;
      } catch {
        // not healthy after all: end it below
      }
    }
    await client.end().catch(() => undefined);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.idle.splice(0).map((client) => client.end().catch(() => undefined)));
  }

  private forget(client: pg.Client): void {
    const index = this.idle.indexOf(client);
    if (index >= 0) this.idle.splice(index, 1);
  }
}

const MAX_IDLE = 16;

export class RunLocks {
  private readonly client: pg.Client;
  private readonly connections: LockConnections;
  private closing = false;
  private lost = false;

  private constructor(client: pg.Client, connections: LockConnections) {
    this.client = client;
    this.connections = connections;
  }

  /** Leases a connection; `onLost` is called if the connection (and with it every lock) goes away before close(). */
  static async open(connections: LockConnections, onLost: (error: Error) => void): Promise<RunLocks> {
    const client = await connections.lease();
    const locks = new RunLocks(client, connections);
    const lose = (error: Error) => {
      locks.lost = true;
      if (!locks.closing) onLost(error);
    };
    client.on("error", lose);
    client.on("end", () => lose(new Error("the connection holding the task run's locks ended")));
    return locks;
  }

  /**
   * Takes the run's lock if the run is PENDING and no worker holds it, and
   * then tries its target database's lock, in one statement; answers what
   * executing the run needs (its script, target and the project's timeouts,
   * so that the target's connection can open while the run is claimed), and
   * whether the target's lock was taken; undefined when the run's lock was
   * not (then no lock is taken). The row is read as the statement began: a
   * run another worker settled meanwhile may still read PENDING, which the
   * claim's own check under the task's row lock catches. The lock an ended
   * run left on the connection is released first (the join's row, and so
   * the new locks, come after it).
   */
  async tryLockPendingRun(runId: number): Promise<LockedRun | undefined> {
    const { rows } = await this.client.query<{ target_locked: boolean | null; run: unknown }>({
      name: "run_locks.lock_pending_run",
      text: `with ended_run_released as materialized (select pg_advisory_unlock_all())
             select case when pg_try_advisory_lock($1, $2) then pg_try_advisory_lock($3, hashtext(run.instance_id || '/' || run.database_name)) end as target_locked,
               to_jsonb(run) as run
             from ended_run_released, (select r.id, r.task_id, r.project_id, r.rollout_id, ro.plan_id, ro.issue_id, r.first_statement, r.creator, t.stage_id,
                          t.instance_id, t.database_name, t.type, t.statement, t.release_file, p.lock_timeout_ms, p.statement_timeout_ms,
                          p.parallel_tasks_per_rollout > 0 as slots_limited, i.engine, i.state as instance_state, i.data_sources
                   from task_run r join task t on t.id = r.task_id join project p on p.id = r.project_id join instance i on i.id = t.instance_id
                     join rollout ro on ro.project_id = r.project_id and ro.id = r.rollout_id
                   where r.id = $4 and r.state = 'PENDING') as run`,
      values: [TASK_RUN_LOCK_CLASS, runId % RUN_KEY_MODULUS, TARGET_DATABASE_LOCK_CLASS, runId],
    });
    const row = rows[0];
    if (!row || row.target_locked === null) return undefined;
    return { run: executableRun.parse(row.run), targetLocked: row.target_locked };
  }

  /** Lets the target database's lock go before the run's end commits, so that the runs it dispatches find the target free. */
  async unlockTarget(instanceId: string, databaseName: string): Promise<void> {
    await this.client.query({
      name: "run_locks.unlock_target",
      text: "select pg_advisory_unlock($1, hashtext($2 || '/' || $3))",
      values: [TARGET_DATABASE_LOCK_CLASS, instanceId, databaseName],
    });
  }

  /**
   * Releases every lock (the connection goes back to the process's idle ones,
   * or ends); `runEnded`: the run was settled, so its lock is left to the
   * connection's next lock statement (its target's was let go before).
   */
  async close(runEnded: boolean): Promise<void> {
    this.closing = true;
    await this.connections.giveBack(this.client, !this.lost, runEnded);
  }
}

const lockedRow = z.object({ locked: z.boolean() });

/** Takes the run's lock until the transaction ends, unless a worker holds it. */
export async function tryRunLockForTransaction(tx: CommonQueryMethods, runId: number): Promise<boolean> {
  return tx.oneFirst(sql.type(lockedRow)`
    select pg_try_advisory_xact_lock(${TASK_RUN_LOCK_CLASS}, ${runId % RUN_KEY_MODULUS}) as locked`);
}
