// Names of plans (contract §0.3, §10.1): projects/<p>/plans/<id>, where the
// id is chosen by the client or a number chosen by the server.
import { invalidArgument, quoted } from "../../platform/index.ts";
import { projectName } from "../../inventory/index.ts";

export interface PlanRef {
  projectId: string;
  id: string;
}

const PLAN_NAME = /^projects\/([a-z][a-z0-9-]{0,62})\/plans\/([a-z][a-z0-9-]{0,62}|[1-9][0-9]{0,18})$/;

export function planName(plan: PlanRef): string {
  return `${projectName(plan.projectId)}/plans/${plan.id}`;
}

export function parsePlanName(name: string, field: string): PlanRef {
  const match = PLAN_NAME.exec(name);
  if (!match) throw invalidArgument(`${field}: ${quoted(name)} is not a valid plan name; use projects/<project_id>/plans/<plan_id>`);
  return { projectId: match[1]!, id: match[2]! };
}
