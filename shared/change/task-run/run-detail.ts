// What a task run's detail says about its statements (contract §12.4,
// §12.6), numbered from 1 as people count them.

/** Which statements from `first` up to (not including) `next` were applied. */
export function appliedText(first: number, next: number): string {
  if (next <= first) return "no statement was applied";
  if (next - first === 1) return `statement ${next} was applied`;
  return `statements ${first + 1}–${next} were applied`;
}

export interface ScriptEnd {
  transactional: boolean;
  firstStatement: number;
  nextStatement: number;
  statementCount: number;
}

export function doneDetail(end: ScriptEnd): string {
  const count = end.statementCount - end.firstStatement;
  if (count <= 0) return "nothing to apply";
  const how = end.transactional ? "in one transaction" : "one by one";
  const from = end.firstStatement > 0 ? `, continuing from statement ${end.firstStatement + 1}` : "";
  return `applied ${count} statement${count === 1 ? "" : "s"} ${how}${from}`;
}

/** `failedStatement` undefined: the COMMIT of a transactional run failed. */
export function failedDetail(end: ScriptEnd & { failedStatement?: number }): string {
  const what = end.failedStatement === undefined ? "the transaction could not commit" : `statement ${end.failedStatement + 1} of ${end.statementCount} failed`;
  return end.transactional ? `${what}; the transaction was rolled back: nothing was applied` : `${what}; ${appliedText(end.firstStatement, end.nextStatement)}`;
}

/** A run stopped by the loss of its worker's lock on the metadata store (the worker lives on). */
export function stoppedDetail(end: ScriptEnd): string {
  const what = "the worker lost its connection to the metadata store and stopped the run";
  return end.transactional ? `${what}; rolled back: nothing was applied` : `${what}; ${appliedText(end.firstStatement, end.nextStatement)}`;
}
