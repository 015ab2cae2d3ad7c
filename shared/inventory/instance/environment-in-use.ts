// The ENVIRONMENT setting's save hook (contract §7.7): removing an
// environment that an active instance or database still names is refused,
// and the refusal names them.
import type { CommonQueryMethods } from "slonik";
import type { EnvironmentSetting } from "../../gen/svc/store/setting_operations_pb.js";
import { failedPrecondition } from "../../platform/index.ts";
import { findEnvironmentUsers } from "./environment-users.store.ts";

const NAMED = 10;

export async function refuseRemovingUsedEnvironments(current: EnvironmentSetting, next: EnvironmentSetting, db: CommonQueryMethods): Promise<void> {
  const kept = new Set(next.environments.map((env) => env.id));
  const removed = current.environments.map((env) => env.id!).filter((id) => !kept.has(id));
  if (removed.length === 0) return;
  const users = await findEnvironmentUsers(db, removed, NAMED + 1);
  if (users.length === 0) return;
  const environments = [...new Set(users.map((u) => `environments/${u.environment}`))].join(", ");
  const named = users.slice(0, NAMED).map((u) => u.resource).join(", ");
  const more = users.length > NAMED ? " and more" : "";
  throw failedPrecondition(`${environments} cannot be removed: still used by ${named}${more}; move them to another environment first`);
}
