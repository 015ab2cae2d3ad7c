// One statement's outcome: the statement, its error or its rows with how
// many, whether some were dropped and how long it took; which columns are
// masked and why.
import { useId } from "react";
import { Alert } from "../../components/alert.tsx";
import { durationMs } from "./cell-text.ts";
import { maskedColumns } from "./masked-columns.ts";
import type { ShownResult } from "./packed-rows.ts";
import { ResultGrid } from "./result-grid.tsx";

const count = new Intl.NumberFormat();

export function QueryResultView({ result, position }: { result: ShownResult; position: number }) {
  const headingId = useId();
  const masked = maskedColumns(result);
  const label = `Result ${position}`;
  return (
    <section className="result" aria-labelledby={headingId}>
      <h3 className="result-heading">
        <span id={headingId}>{label}</span>
        <code className="result-statement">{result.statement}</code>
      </h3>
      {result.error ? (
        <Alert tone="error">{result.error}</Alert>
      ) : (
        <>
          <p className="result-summary">
            <span>{count.format(result.rows.length)} {result.rows.length === 1 ? "row" : "rows"}</span>
            {result.truncated && <span className="badge truncated-badge">truncated: more rows than the limit or the result size allows</span>}
            <span>{count.format(Math.round(durationMs(result.latency)))} ms</span>
          </p>
          {masked.length > 0 && (
            <ul className="masked-list" aria-label="Masked columns">
              {masked.map((m) => (
                <li key={m.column}>
                  <strong>{m.column}</strong> masked{m.semanticType && <> as {m.semanticType}</>}: {m.reason}
                </li>
              ))}
            </ul>
          )}
          {result.columnNames.length > 0 && <ResultGrid result={result} label={label} />}
        </>
      )}
    </section>
  );
}
