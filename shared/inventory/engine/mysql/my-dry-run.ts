// The MySQL dry run (contract §10.3). DDL is never run: it is PREPAREd (a
// syntax check) and its table and column names are checked against the schema
// as the script's earlier DDL would leave it. DML is EXPLAINed; a writing
// statement then runs inside a transaction that is rolled back, with the
// session's statement and lock-wait timeouts, when a rollback undoes all it
// can do (my-execution-safety.ts) and the script's DDL did not change what it
// uses. Other statements are PREPAREd only. The first error ends the run;
// statements that cannot be checked this way are reported as not dry-runnable.
// A preamble (earlier changes of the plan on this database) only shapes the
// schema model: its DDL is applied to it, nothing of it runs.
import type { Connection } from "mysql2/promise";
import { splitStatements, type SqlStatement } from "../split.ts";
import { positionInStatement } from "../script-position.ts";
import type { DryRunProblem } from "../target.ts";
import { ExecutionSafety } from "./my-execution-safety.ts";
import { isMariaDb } from "./my-flavor.ts";
import { applyTimeouts, ER_UNSUPPORTED_PS, prepareCheck, runChecked, type MyAttempt } from "./my-run.ts";
import { SchemaModel } from "./my-schema-model.ts";
import { myStatementKind } from "./my-statement-kind.ts";
import { tokenize, type Token } from "./my-tokens.ts";

type Finding = { kind: DryRunProblem["kind"]; message: string; offset: number | undefined };

export async function mysqlDryRun(connection: Connection, database: string, script: string, timeoutMs: number, preamble = ""): Promise<DryRunProblem[]> {
  const model = await SchemaModel.load(connection, database);
  for (const statement of splitStatements("MYSQL", preamble)) {
    if (myStatementKind(statement.text) === "ddl") model.apply(tokenize(statement.text));
  }
  const safety = await ExecutionSafety.load(connection, database);
  await applyTimeouts(connection, timeoutMs, await isMariaDb(connection));
  const check = new StatementChecks(connection, model, safety, timeoutMs);
  const problems: DryRunProblem[] = [];
  for (const statement of splitStatements("MYSQL", script)) {
    const finding = await check.statement(statement);
    if (!finding) continue;
    problems.push({ kind: finding.kind, message: finding.message, ...positionInStatement(script, statement, finding.offset) });
    if (finding.kind === "error") break;
  }
  return problems;
}

class StatementChecks {
  private readonly connection: Connection;
  private readonly model: SchemaModel;
  private readonly safety: ExecutionSafety;
  private readonly timeoutMs: number;

  constructor(connection: Connection, model: SchemaModel, safety: ExecutionSafety, timeoutMs: number) {
    this.connection = connection;
    this.model = model;
    this.safety = safety;
    this.timeoutMs = timeoutMs;
  }

  async statement({ text }: SqlStatement): Promise<Finding | undefined> {
    const tokens = tokenize(text);
    switch (myStatementKind(text)) {
      case "transaction-control":
        return undefined;
      case "ddl":
        return this.ddl(text, tokens);
      case "dml-read":
        return this.dml(text, tokens, false);
      case "dml-write":
        return this.dml(text, tokens, true);
      case "other":
        return this.prepared(text, "it cannot be checked without running it");
    }
  }

  private async ddl(text: string, tokens: Token[]): Promise<Finding | undefined> {
    const syntax = await this.prepared(text, undefined);
    if (syntax) return syntax;
    const problem = this.model.apply(tokens);
    return problem && { kind: "error", ...problem };
  }

  private async dml(text: string, tokens: Token[], writes: boolean): Promise<Finding | undefined> {
    const explained = await runChecked(this.connection, `EXPLAIN ${text}`, text, this.timeoutMs);
    const changed = this.model.changedTablesIn(tokens);
    if (changed.length > 0) {
      // Explained on the schema before the script's DDL: a success or a failure that the DDL cannot cure stands; it is not run.
      if (explained.ok || this.model.stillFails(explained.failure.message, tokens)) return failed(explained);
      return notDryRunnable(`it uses ${changed.join(", ")}, which an earlier statement of the script changes (a MySQL dry run does not run DDL)`);
    }
    if (!explained.ok || !writes) return failed(explained);
    const reason = this.safety.reasonNotToRun(tokens);
    if (reason) return notDryRunnable(`checked with EXPLAIN only, not run: ${reason}`);
    await this.connection.query("START TRANSACTION");
    try {
      return failed(await runChecked(this.connection, text, text, this.timeoutMs));
    } finally {
      await this.connection.query("ROLLBACK").catch(() => undefined);
    }
  }

  /** PREPARE as a syntax check; `unsupported` is what to report when the server cannot prepare this kind of statement. */
  private async prepared(text: string, unsupported: string | undefined): Promise<Finding | undefined> {
    const outcome = await prepareCheck(this.connection, text, this.timeoutMs);
    if (!outcome.ok && outcome.failure.errno === ER_UNSUPPORTED_PS) return unsupported ? notDryRunnable(unsupported) : undefined;
    return failed(outcome);
  }
}

function failed(outcome: MyAttempt): Finding | undefined {
  return outcome.ok ? undefined : { kind: "error", message: outcome.failure.message, offset: outcome.failure.offset };
}

function notDryRunnable(message: string): Finding {
  return { kind: "not-dry-runnable", message, offset: undefined };
}
