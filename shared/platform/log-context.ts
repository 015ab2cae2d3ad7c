// The fields of the work at hand (contract §15.5): the correlation id of the
// request, job or leader run, and the resources it concerns, under the
// contract's names. Work runs inside withLogFields; every log line made
// during it carries the fields (logger.ts), every job it enqueues carries
// the correlation id (jobs/jobs.store.ts), and so do the task run log
// entries it writes. Async work started inside keeps them.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";

export interface LogFields {
  correlation_id?: string;
  /** users/<login_id>, or "system" for the service's own moves. */
  actor?: string;
  /** Resource names: projects/<p>/rollouts/<r>/tasks/<t>[/taskRuns/<id>], projects/<p>/plans/<id>, … */
  task?: string;
  task_run?: string;
  plan?: string;
  issue?: string;
  rollout?: string;
  /** instances/<id> */
  instance?: string;
}

const storage = new AsyncLocalStorage<LogFields>();

/** Runs `work` with these fields over the current ones (fields left undefined keep the current value). */
export function withLogFields<T>(fields: LogFields, work: () => T): T {
  return storage.run({ ...storage.getStore(), ...defined(fields) }, work);
}

/** Adds fields to the work at hand for the rest of it (an API call learns its caller once authenticated); none outside any work. */
export function addLogFields(fields: LogFields): void {
  const current = storage.getStore();
  if (current) Object.assign(current, defined(fields));
}

// A loop, not Object.entries/filter/fromEntries: every API call passes here.
function defined(fields: LogFields): LogFields {
  const kept: LogFields = {};
  for (const key in fields) {
    const value = fields[key as keyof LogFields];
    if (value !== undefined) kept[key as keyof LogFields] = value;
  }
  return kept;
}

/** Runs `work` under a correlation id of its own: background work that no request asked for (a leader's periodic run). */
export function withNewCorrelationId<T>(work: () => T): T {
  return withLogFields({ correlation_id: randomUUID() }, work);
}

/** The fields of the work at hand; undefined outside any. */
export function currentLogFields(): Readonly<LogFields> | undefined {
  return storage.getStore();
}

export function currentCorrelationId(): string | undefined {
  return storage.getStore()?.correlation_id;
}
