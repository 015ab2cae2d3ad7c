// Whether a process is ready for traffic (contract §15.2): not shutting down,
// and the metadata store answers within 1 s. Migrations are done before any
// process serves, so a process that answers has them. Shared by the API's
// /readyz and a worker's ops server.
import { type Db, ping } from "../db.ts";

export interface Readiness {
  db: Db;
  /** True from the start of shutdown, so the proxy drains this process. */
  isShuttingDown: () => boolean;
}

export type ReadinessAnswer = { ready: true } | { ready: false; reason: string };

const STORE_CHECK_TIMEOUT_MS = 1_000;

export async function checkReadiness(readiness: Readiness): Promise<ReadinessAnswer> {
  if (readiness.isShuttingDown()) return { ready: false, reason: "shutting down" };
  const reason = await storeProblem(readiness.db);
  return reason ? { ready: false, reason } : { ready: true };
}

/** The /readyz body and status of an answer. */
export function readinessReply(answer: ReadinessAnswer): { status: 200 | 503; body: Record<string, string> } {
  return answer.ready ? { status: 200, body: { status: "ready" } } : { status: 503, body: { status: "unavailable", reason: answer.reason } };
}

async function storeProblem(db: Db): Promise<string | undefined> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve("the metadata store did not answer within 1 s"), STORE_CHECK_TIMEOUT_MS);
  });
  const check = ping(db).then(
    () => undefined,
    (error: Error) => `the metadata store is unreachable: ${error.message}`,
  );
  try {
    return await Promise.race([check, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
