// The target session a task run's script executes in (contract §12.4): the
// instance's ADMIN data source, the run's database, the project's lock and
// statement timeouts. The worker starts opening it while the run is claimed,
// so that the connection's set-up overlaps the claim; the script runs in it
// only once the claim started the run, and a run that does not start closes
// it unused. A deleted instance cannot be reached: executing then fails.
import { type ExecuteOutcome, type ExecuteRequest, openTarget, type ScriptSession, type Target } from "../../inventory/index.ts";
import type { SecretBox } from "../../platform/index.ts";
import { runConnectionOf } from "./run-connection.ts";
import type { ExecutableRun } from "./run-locks.store.ts";

export class RunSession {
  private readonly secrets: SecretBox;
  private readonly run: ExecutableRun;
  private target: Target | undefined;
  private opening: Promise<ScriptSession> | undefined;

  constructor(secrets: SecretBox, run: ExecutableRun) {
    this.secrets = secrets;
    this.run = run;
  }

  /** Starts opening the session (once); its problems are the outcome of execute(). */
  open(): void {
    if (this.opening) return;
    this.opening = this.connect();
    this.opening.catch(() => undefined); // reported by execute(), or dropped by close() when the run does not start
  }

  /** Runs the script in the session (opened now if it was not yet). */
  async execute(request: ExecuteRequest): Promise<ExecuteOutcome> {
    this.open();
    return (await this.opening!).execute(request);
  }

  /** Closes the session, once its opening has settled. */
  async close(): Promise<void> {
    await this.opening?.catch(() => undefined);
    await this.target?.close();
  }

  private async connect(): Promise<ScriptSession> {
    this.target = openTarget(runConnectionOf(this.run.instance, this.secrets));
    return this.target.openScriptSession(this.run.databaseName, { lockTimeoutMs: this.run.lockTimeoutMs, statementTimeoutMs: this.run.statementTimeoutMs });
  }
}
