// Explain (contract §14.1): the target's plan for one read statement, as text
// and as JSON, read in the same read-only session whose transaction is rolled
// back. `analyze` runs the statement to measure it (once for each form). The
// statement passes the read-only guard first, and must be a query the target
// can explain (SELECT, WITH … SELECT, TABLE, VALUES): the target's refusal is
// invalid_argument with its message. A plan cannot be masked (its filters
// quote values, analyze counts matching rows), so Explain of a statement
// reading a column the caller may not see is refused (contract §19.2).
import { readWorkspaceProfile } from "../../governance/index.ts";
import { invalidArgument } from "../../platform/index.ts";
import type { Column, Row } from "../cells.ts";
import { type Dialect, type ReadSession, type RowSink, withReadSession } from "../session/read-session.ts";
import type { QueryDeps } from "./query.ts";
import { type ReadRequest, readTarget } from "./read-target.ts";
import { tableText } from "./table-text.ts";

export interface ExplainRequest extends ReadRequest {
  analyze: boolean;
  signal: AbortSignal;
}

const HIDDEN_PLAN =
  "statement: it reads columns masked for you, and a plan cannot be masked (it shows filter values and matching row counts): Explain is refused";

export interface Plan {
  /** As the target prints it. */
  text: string;
  /** The target's JSON form. */
  json: string;
}

/** The statements that explain `statement`, as text and as JSON, in each dialect. */
const EXPLAIN: Record<Dialect, (analyze: boolean) => { text: string; json: string }> = {
  POSTGRES: (analyze) => ({ text: `explain (${analyze ? "analyze, " : ""}format text) `, json: `explain (${analyze ? "analyze, " : ""}format json) ` }),
  MARIADB: (analyze) => ({ text: analyze ? "analyze " : "explain ", json: analyze ? "analyze format=json " : "explain format=json " }),
  // MySQL explains an analysed run as a tree only; its JSON form stays the estimate.
  MYSQL: (analyze) => ({ text: analyze ? "explain analyze " : "explain ", json: "explain format=json " }),
};

export async function explainStatement(deps: QueryDeps, request: ExplainRequest): Promise<Plan> {
  const { ref, config, statements, masker } = await readTarget(deps, request);
  if (statements.length !== 1) throw invalidArgument(`statement: Explain takes one statement, got ${statements.length}`);
  if (masker?.hidesAny) throw invalidArgument(HIDDEN_PLAN);
  const profile = await readWorkspaceProfile(deps.settings);
  const options = { schema: request.schema, timeoutMs: profile.queryTimeoutMs, signal: request.signal };
  return withReadSession({ connections: deps.connections, engine: config.engine, config, database: ref.name }, options, async (session) => {
    const prefix = EXPLAIN[session.dialect](request.analyze);
    const text = await explained(session, prefix.text + statements[0]!.text);
    const json = await explained(session, prefix.json + statements[0]!.text);
    return { text: planText(text), json: json.rows.map((row) => String(row[0])).join("\n") };
  });
}

/** What EXPLAIN answered; the target's refusal is invalid_argument. */
async function explained(session: ReadSession, statement: string): Promise<{ columns: Column[]; rows: Row[] }> {
  const answer: { columns: Column[]; rows: Row[] } = { columns: [], rows: [] };
  const sink: RowSink = {
    columns: (columns) => void (answer.columns = columns),
    rows: (batch) => (answer.rows.push(...batch), true),
  };
  const { error } = await session.read(statement, sink, 1000);
  if (error) throw invalidArgument(`statement: the target cannot explain it: ${error}`);
  return answer;
}

/** PostgreSQL and MySQL's tree print their plan as lines; MySQL's classic EXPLAIN is a table, printed as one. */
function planText(plan: { columns: Column[]; rows: Row[] }): string {
  if (plan.columns.length === 1) return plan.rows.map((row) => String(row[0])).join("\n");
  return tableText(plan.columns, plan.rows);
}
