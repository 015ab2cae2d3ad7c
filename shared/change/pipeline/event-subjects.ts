// The common fields of an event: who caused it, and the issue or rollout it
// is about (contract §16.2 names resource, title and actor).
import { issueName } from "../issue/issue-names.ts";
import type { IssueRow } from "../issue/issue.store.ts";
import type { RolloutRow } from "../rollout/rollout.store.ts";

export interface EventSubject {
  actor: string;
  resource: string;
  title: string;
  issue: string | undefined;
}

export function issueSubject(issue: IssueRow, actor: string): EventSubject {
  return { actor, resource: issueName(issue), title: issue.title, issue: issueName(issue) };
}

/** An event about `resource`, part of the rollout (the rollout itself, a stage, a task run). */
export function rolloutSubject(rollout: RolloutRow, resource: string, actor: string): EventSubject {
  const issue = rollout.issueId === undefined ? undefined : issueName({ projectId: rollout.projectId, issueId: rollout.issueId });
  return { actor, resource, title: rollout.title, issue };
}
