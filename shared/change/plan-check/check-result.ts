// What a plan check run reports (contract §10.2): one result per finding of a
// check on a target.
export type CheckType = "STATEMENT_ADVISE" | "STATEMENT_SUMMARY_REPORT" | "DRY_RUN";
export type ResultStatus = "SUCCESS" | "WARNING" | "ERROR";
export type RunStatus = "RUNNING" | "DONE" | "FAILED" | "CANCELED";

export interface CheckResult {
  type: CheckType;
  /** The database checked: instances/<i>/databases/<d>. */
  target: string;
  specId: string;
  status: ResultStatus;
  title: string;
  content: string;
  code: string;
  /** 1-based position in the statement; 0 when unknown. */
  line: number;
  column: number;
  summary?: { sqlTypes: string[]; affectedRows: number };
}

/** Results counted by status, as a plan shows its latest run. */
export function countByStatus(results: readonly CheckResult[]): Record<ResultStatus, number> {
  const counts: Record<ResultStatus, number> = { SUCCESS: 0, WARNING: 0, ERROR: 0 };
  for (const result of results) counts[result.status]++;
  return counts;
}
