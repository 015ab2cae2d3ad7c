// What the last call answered: each statement's result, the plan, the file
// exported, the statements executed, or the refusal with the server's message.
import { Alert } from "../../components/alert.tsx";
import { Loading } from "../../components/loading.tsx";
import { ExecutedStatements } from "./executed-statements.tsx";
import { QueryResultView } from "./query-result-view.tsx";
import type { Outcome } from "./outcome.ts";
import type { CallState } from "./use-sql-call.ts";

const RUNNING = { query: "Running…", explain: "Reading the plan…", export: "Exporting…", execute: "Executing…" } as const;

export function SqlOutput({ state }: { state: CallState<Outcome> }) {
  switch (state.status) {
    case "idle":
      return null;
    case "running":
      return <Loading label={RUNNING[state.call]} />;
    case "cancelled":
      return <Alert tone="info">Cancelled.</Alert>;
    case "failed":
      return <Alert tone="error">{state.message}</Alert>;
    case "done":
      return <OutcomeView outcome={state.value} />;
  }
}

function OutcomeView({ outcome }: { outcome: Outcome }) {
  switch (outcome.kind) {
    case "query":
      return (
        <div className="results">
          {outcome.results.map((result, i) => (
            <QueryResultView key={i} result={result} position={i + 1} />
          ))}
        </div>
      );
    case "explain":
      return (
        <section className="plan" aria-label="Plan">
          <h3>{outcome.analyze ? "Plan, analyzed" : "Plan"}</h3>
          <pre className="plan-text" tabIndex={0}>
            {outcome.plan}
          </pre>
        </section>
      );
    case "export":
      return (
        <Alert tone="success">
          Exported {outcome.file.filename} ({new Intl.NumberFormat().format(outcome.file.bytes)} bytes)
          {outcome.file.maskedColumns > 0 && `; ${outcome.file.maskedColumns} masked ${outcome.file.maskedColumns === 1 ? "column" : "columns"}`}.
        </Alert>
      );
    case "execute":
      return <ExecutedStatements statements={outcome.statements} />;
  }
}
