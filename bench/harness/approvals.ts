// Approve → RUNNING, as the figures that time it measure it (rollout,
// notify): a project whose changes in `test` (an AUTOMATIC environment) wait
// for one approval by a project owner, the bench user being one; then, per
// sample, a plan and its issue, and from ApproveIssue sent to the first task
// run's start_time (PENDING → RUNNING in the worker).
import { setTimeout as sleep } from "node:timers/promises";
import type pg from "pg";
import { userMember } from "../../shared/identity/iam/members.ts";
import type { Api, Json } from "./api-client.ts";

export interface ApprovalProject {
  project: string;
  instance: string;
}

/**
 * The project (self-approval allowed, the bench user an owner), the
 * workspace's rule asking a project owner to approve changes in `test`, and
 * an instance in `test` on the server of `serverUrl`.
 */
export async function prepareApprovals(api: Api, loginId: string, where: ApprovalProject, serverUrl: string): Promise<void> {
  await api.call("POST", `/v1/projects?projectId=${where.project}`, { title: where.project, allowSelfApproval: true });
  const policy = await api.call("GET", `/v1/projects/${where.project}:getIamPolicy`);
  await api.call("POST", `/v1/projects/${where.project}:setIamPolicy`, {
    policy: { etag: policy.etag, bindings: [...policy.bindings, { role: "roles/projectOwner", members: [userMember(loginId)] }] },
  });
  const rule = { source: "CHANGE_DATABASE", condition: { expression: 'resource.environment_id == "test"' }, template: { title: "test", steps: [{ roles: ["roles/projectOwner"] }] } };
  await api.call("PATCH", "/v1/settings/WORKSPACE_APPROVAL?updateMask=workspaceApproval.rules", { value: { workspaceApproval: { rules: [rule] } } });
  const url = new URL(serverUrl);
  await api.call("POST", `/v1/instances?instanceId=${where.instance}`, {
    engine: "POSTGRES",
    environment: "environments/test",
    dataSources: [{ type: "ADMIN", host: url.hostname, port: url.port || "5432", username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) }],
  });
}

/** One sample: a plan of `select 1` on `target` and its issue, approved; ms from the call to the first task run's start. */
export async function approveToRunning(api: Api, client: pg.Client, project: string, target: string, title: string): Promise<number> {
  const plan = await api.call("POST", `/v1/projects/${project}/plans`, { title, specs: [{ changeDatabaseConfig: { targets: [target], statement: "select 1", type: "DATA" } }] });
  const issue = await settled(api, (await api.call("POST", `/v1/projects/${project}/issues`, { plan: plan.name })).name);
  if (issue.approvalStatus !== "PENDING") throw new Error(`issue ${issue.name} is ${issue.approvalStatus}, not PENDING`);
  const sent = Date.now();
  await api.call("POST", `/v1/${issue.name}:approve`, {});
  return (await firstStart(client, plan.name)) - sent;
}

/** The issue once its checks have ended (its approval no longer CHECKING). */
export async function settled(api: Api, issue: string): Promise<Json> {
  for (;;) {
    const current = await api.call("GET", `/v1/${issue}`);
    if (current.approvalStatus !== "CHECKING") return current;
    await sleep(50);
  }
}

/** The start time (epoch ms) of the first task run of the plan's rollout, once it has one. */
async function firstStart(client: pg.Client, planName: string): Promise<number> {
  const [, projectId, , planId] = planName.split("/");
  for (;;) {
    const { rows } = await client.query<{ started: string | null }>(
      `select (extract(epoch from min(r.start_time)) * 1000)::text as started
       from task_run r join rollout o on o.project_id = r.project_id and o.id = r.rollout_id
       where o.project_id = $1 and o.plan_id = $2`,
      [projectId, planId],
    );
    if (rows[0]?.started) return Number(rows[0].started);
    await sleep(5);
  }
}
