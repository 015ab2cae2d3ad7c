// The people an event concerns (contract §16.3: "approvers, creator"), whom
// EMAIL writes to and the IM channels message directly:
//
//   issue.approvalRequested                the holders of the step's roles at the issue's project
//                                          (or the workspace), but not who already approved a step
//   issue.approved, .rejected, .commented,  the issue's creator
//   rollout.*, taskRun.failed
//   issue.created, emergencyPause.changed,  nobody in particular (the IM channels' configured chat)
//   user.locked
//
// Whoever caused the event is never told of it, and only active end users
// with an e-mail address are reached.
import type { CommonQueryMethods } from "slonik";
import { getIssue, type IssueRow, parseIssueName } from "../change/index.ts";
import { type Contact, contactsOf, roleHolders } from "../identity/index.ts";
import { projectName } from "../inventory/index.ts";
import { type DomainEvent, userName } from "../platform/index.ts";

export type { Contact };

const CREATOR_EVENTS = new Set(["issue.approved", "issue.rejected", "issue.commented", "rollout.stageStarted", "taskRun.failed", "rollout.done", "rollout.failed"]);

/** Each event's people, found once for all the channels that write to them (in the event's transaction). */
const found = new WeakMap<DomainEvent, Promise<Contact[]>>();

export function recipientsOf(tx: CommonQueryMethods, event: DomainEvent): Promise<Contact[]> {
  let people = found.get(event);
  if (!people) found.set(event, (people = findRecipients(tx, event)));
  return people;
}

async function findRecipients(tx: CommonQueryMethods, event: DomainEvent): Promise<Contact[]> {
  if (event.issue === undefined) return [];
  if (event.event !== "issue.approvalRequested" && !CREATOR_EVENTS.has(event.event)) return [];
  const issue = await getIssue(tx, parseIssueName(event.issue, "issue"));
  const people = event.event === "issue.approvalRequested" ? await stepApprovers(tx, issue, event) : await contactsOf(tx, [loginIdOf(issue.creator)]);
  return people.filter((person) => userName(person.loginId) !== event.actor);
}

async function stepApprovers(tx: CommonQueryMethods, issue: IssueRow, event: DomainEvent): Promise<Contact[]> {
  const { roles } = event.detail as { roles?: string[] };
  const holders = await roleHolders(tx, roles ?? [], projectName(issue.projectId));
  const approved = new Set(issue.approvers.filter((a) => a.status === "APPROVED").map((a) => a.principal));
  return holders.filter((person) => !approved.has(userName(person.loginId)));
}

function loginIdOf(user: string): string {
  return user.slice("users/".length);
}
