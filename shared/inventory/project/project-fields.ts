// A project's writable fields as a request gives them (contract §9.1), checked
// and converted to what the store keeps.
import { invalidArgument, parseDuration, quoted } from "../../platform/index.ts";
import type { ProjectFields } from "./project.store.ts";

export interface ProjectDraft {
  title: string;
  key: string;
  labels: Record<string, string>;
  allowSelfApproval: boolean | undefined;
  parallelTasksPerRollout: number;
  /** Durations as the API takes them ("10s", "1m"); undefined keeps the default. */
  lockTimeout: string | undefined;
  statementTimeout: string | undefined;
  requirePlanCheckSuccess: boolean | undefined;
}

const KEY = /^[A-Z][A-Z0-9]{0,9}$/;
const LABEL_KEY = /^[a-z][a-z0-9_.-]{0,62}$/;
const MAX_LABEL_VALUE = 256;

export const PROJECT_DEFAULTS = { lockTimeoutMs: 10_000, statementTimeoutMs: 0, requirePlanCheckSuccess: true } as const;

/** The key derived from a project id: its letters and digits upper-cased, at most 10. */
export function keyFromId(id: string): string {
  return id.replace(/[^a-z0-9]/g, "").toUpperCase().slice(0, 10);
}

export function checkKey(key: string): string {
  if (!KEY.test(key)) throw invalidArgument(`project.key: ${quoted(key)} is not a valid key; use an upper-case letter, then up to 9 upper-case letters and digits`);
  return key;
}

export function checkLabels(labels: Record<string, string>, field: string): Record<string, string> {
  for (const [key, value] of Object.entries(labels)) {
    if (!LABEL_KEY.test(key)) throw invalidArgument(`${field}: label key ${quoted(key)} must be lower-case letters, digits, "_", "." or "-", starting with a letter`);
    if (value.length > MAX_LABEL_VALUE) throw invalidArgument(`${field}: the value of label ${quoted(key)} is longer than ${MAX_LABEL_VALUE} characters`);
  }
  return labels;
}

export function parallelTasks(value: number): number {
  if (!Number.isInteger(value) || value < 0) throw invalidArgument("project.parallel_tasks_per_rollout must be 0 (unlimited) or more");
  return value;
}

export function timeoutMs(text: string, field: string): number {
  return Math.round(parseDuration(text, field));
}

/** The stored fields of a new project. */
export function newProjectFields(id: string, draft: ProjectDraft): ProjectFields {
  return {
    title: draft.title.trim() || id,
    key: draft.key ? checkKey(draft.key) : keyFromId(id),
    labels: checkLabels(draft.labels, "project.labels"),
    allowSelfApproval: draft.allowSelfApproval,
    parallelTasksPerRollout: parallelTasks(draft.parallelTasksPerRollout),
    lockTimeoutMs: draft.lockTimeout === undefined ? PROJECT_DEFAULTS.lockTimeoutMs : timeoutMs(draft.lockTimeout, "project.lock_timeout"),
    statementTimeoutMs:
      draft.statementTimeout === undefined ? PROJECT_DEFAULTS.statementTimeoutMs : timeoutMs(draft.statementTimeout, "project.statement_timeout"),
    requirePlanCheckSuccess: draft.requirePlanCheckSuccess ?? PROJECT_DEFAULTS.requirePlanCheckSuccess,
  };
}
