// A plan check run's results for one statement: status, check, the rule's
// code, the message (a summary says its statement types and rows there)
// and, when known, the line and column it points at.
import { type PlanCheckRun_Result, PlanCheckRun_Result_Status, PlanCheckRun_Result_Type } from "@gen/svc/v1/plan_check_run_service_pb.js";

const CHECK_NAMES: Record<PlanCheckRun_Result_Type, string> = {
  [PlanCheckRun_Result_Type.TYPE_UNSPECIFIED]: "Check",
  [PlanCheckRun_Result_Type.STATEMENT_ADVISE]: "Review",
  [PlanCheckRun_Result_Type.STATEMENT_SUMMARY_REPORT]: "Summary",
  [PlanCheckRun_Result_Type.DRY_RUN]: "Dry run",
};

/** "line 3, column 7", or "" when the check gave no position. */
export function positionText(result: Pick<PlanCheckRun_Result, "line" | "column">): string {
  if (result.line <= 0) return "";
  return result.column > 0 ? `line ${result.line}, column ${result.column}` : `line ${result.line}`;
}

export function CheckResults({ results }: { results: PlanCheckRun_Result[] }) {
  if (results.length === 0) return null;
  return (
    <ul className="check-results" aria-label="Check results">
      {results.map((result, index) => {
        const status = PlanCheckRun_Result_Status[result.status];
        const position = positionText(result);
        return (
          <li key={index} className={`check-result result-${status.toLowerCase()}`}>
            <span className={`badge result-badge-${status.toLowerCase()}`}>{status}</span> <strong>{CHECK_NAMES[result.type]}</strong>
            {result.code && <code className="rule-code">{result.code}</code>}
            {position && <span className="position"> at {position}</span>}
            <span className="result-text">
              {" "}
              {result.title}
              {result.content && result.content !== result.title ? ` — ${result.content}` : ""}
            </span>
          </li>
        );
      })}
    </ul>
  );
}
