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
import { TARGET_DATABASE_LOCK_CLASS, TASK_RUN_LOCK_CLASS } from "../platform/locks.ts";
import { SESSION_KEEPALIVE_OPTIONS } from "../platform/session-keepalive.ts";

/** Lock keys are int4: run ids wrap (two runs 2^31 apart share a key, which only makes one wait). */
const RUN_KEY_MODULUS = 2 ** 31;

export class RunLocks {
  private readonly client: pg.Client;
  private closing = false;

  private constructor(client: pg.Client) {
    this.client = client;
  }

  /** Connects; `onLost` is called if the connection (and with it every lock) goes away before close(). */
  static async open(url: string, onLost: (error: Error) => void): Promise<RunLocks> {
    const client = new pg.Client({
      connectionString: url,
      application_name: "svc task run",
      keepAlive: true,
      keepAliveInitialDelayMillis: 10_000,
      options: SESSION_KEEPALIVE_OPTIONS,
    });
    const locks = new RunLocks(client);
    client.on("error", (error) => void (locks.closing || onLost(error)));
    client.on("end", () => void (locks.closing || onLost(new Error("the connection holding the task run's locks ended"))));
    await client.connect();
    return locks;
  }

  async tryLockRun(runId: number): Promise<boolean> {
    return this.tryLock("select pg_try_advisory_lock($1, $2) as locked", [TASK_RUN_LOCK_CLASS, runId % RUN_KEY_MODULUS]);
  }

  async tryLockTarget(instanceId: string, databaseName: string): Promise<boolean> {
    return this.tryLock("select pg_try_advisory_lock($1, hashtext($2 || '/' || $3)) as locked", [TARGET_DATABASE_LOCK_CLASS, instanceId, databaseName]);
  }

  async unlockTarget(instanceId: string, databaseName: string): Promise<void> {
    await this.client.query("select pg_advisory_unlock($1, hashtext($2 || '/' || $3))", [TARGET_DATABASE_LOCK_CLASS, instanceId, databaseName]);
  }

  /** Releases every lock (the connection ends). */
  async close(): Promise<void> {
    this.closing = true;
    await this.client.end().catch(() => undefined);
  }

  private async tryLock(text: string, values: unknown[]): Promise<boolean> {
    return (await this.client.query<{ locked: boolean }>(text, values)).rows[0]?.locked === true;
  }
}

/** Takes the run's lock until the transaction ends, unless a worker holds it. */
export async function tryRunLockForTransaction(tx: CommonQueryMethods, runId: number): Promise<boolean> {
  return tx.oneFirst(sql.type(z.object({ locked: z.boolean() }))`
    select pg_try_advisory_xact_lock(${TASK_RUN_LOCK_CLASS}, ${runId % RUN_KEY_MODULUS}) as locked`);
}
