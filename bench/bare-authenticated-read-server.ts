// The authenticated-read baseline: bare Fastify routes on plain pg (a pool of
// the server's size) that answer GET /v1/projects/<id> and
// GET /v1/projects/<id>/issues?pageSize=N with the real server's JSON, each
// request running what an authenticated read needs without caches:
//   1. the session lookup by the bearer token's SHA-256 (session.store.ts
//      findSessionToken), and the token's liveness checked;
//   2. the IAM policies of the workspace and the project (iam-policy.store.ts
//      findPolicies), and a binding naming the user required;
//   3. the project row (project.store.ts findProject), and for issues the
//      page, one row more than asked (issue-list.store.ts listIssues).
// The statements are the store's text, sent in the same form (a named
// prepared statement where the store names one). No hooks, no logger, no
// protobuf. Env: BENCH_PG_URL, BENCH_POOL_SIZE. Prints {"port": N} on stdout;
// SIGTERM stops it.
import { createHash } from "node:crypto";
import Fastify, { type FastifyReply, type FastifyRequest } from "fastify";
import pg from "pg";
import { createHybridServer, DEFAULT_TIMEOUTS } from "../api/server-factory.ts";

const url = process.env.BENCH_PG_URL;
if (!url) throw new Error("BENCH_PG_URL is required");
const pool = new pg.Pool({ connectionString: url, max: Number(process.env.BENCH_POOL_SIZE ?? 20) });

const SESSION = {
  name: "session_token.find",
  text: `select t.family_id, t.principal_id, t.kind, t.expire_time, t.spent_time, t.revoked_time, t.pending_mfa_enrollment,
  (select max(f.last_used_time) from session_token f where f.family_id = t.family_id) as family_last_used_time,
  p.login_id, p.state as principal_state, p.require_reset_password, p.password_change_time
  from session_token t join principal p on p.id = t.principal_id where t.token_hash = $1`,
};
const POLICIES = { name: "iam_policy.find_by_scopes", text: `select scope, bindings, etag, update_time from iam_policy where scope = any($1::"text"[])` };
const PROJECT = {
  name: "project.find",
  text: `select id, title, key, state, labels, allow_self_approval, parallel_tasks_per_rollout, lock_timeout_ms, statement_timeout_ms,
  require_plan_check_success, creator, etag, create_time, update_time from project where id = $1`,
};
const ISSUE_PAGE = {
  text: `select issue.project_id, issue.id, issue.plan_id, issue.title, issue.description, issue.status, issue.labels, issue.approval_status,
  issue.approval_template, issue.approvers, issue.current_step, issue.risk_level, issue.pending_time, issue.creator, issue.etag,
  issue.create_time, issue.update_time,
  (select r.id from rollout r where r.project_id = issue.project_id and r.plan_id = issue.plan_id) as rollout_id,
  to_char(create_time at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as page_time
  from issue where issue.project_id = any($1::"text"[]) order by create_time desc, id desc limit $2`,
};

type Row = Record<string, any>;

/** The project row when the bearer's session is live and a binding at the workspace or the project names the user; else the refusal. */
async function authorizedProject(request: FastifyRequest<{ Params: { project: string } }>, reply: FastifyReply): Promise<Row | undefined> {
  const token = /^bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? "")?.[1];
  const session = token && (await pool.query({ ...SESSION, values: [createHash("sha256").update(token).digest()] })).rows[0];
  if (!session || !live(session)) return void reply.code(401).send({ code: "unauthenticated", message: "the access token is invalid, expired or revoked" });
  const member = `user:login_id=${session.login_id}`;
  const policies = (await pool.query({ ...POLICIES, values: [["workspaces/-", `projects/${request.params.project}`]] })).rows;
  if (!policies.some((p) => p.bindings.some((b: Row) => b.members.includes(member)))) {
    return void reply.code(403).send({ code: "permission_denied", message: "no binding" });
  }
  const project = (await pool.query({ ...PROJECT, values: [request.params.project] })).rows[0];
  if (!project) return void reply.code(404).send({ code: "not_found", message: "no such project" });
  return project;
}

function live(session: Row): boolean {
  return session.kind === "ACCESS" && !session.revoked_time && session.expire_time.getTime() > Date.now() && session.principal_state === "ACTIVE";
}

const fastify = Fastify({ serverFactory: (handler) => createHybridServer(handler as Parameters<typeof createHybridServer>[0], DEFAULT_TIMEOUTS, false) });

fastify.get<{ Params: { project: string } }>("/v1/projects/:project", async (request, reply) => {
  const project = await authorizedProject(request, reply);
  return project && projectJson(project);
});

fastify.get<{ Params: { project: string }; Querystring: { pageSize?: string } }>("/v1/projects/:project/issues", async (request, reply) => {
  const project = await authorizedProject(request, reply);
  if (!project) return;
  const size = Number(request.query.pageSize ?? 50);
  const rows = (await pool.query({ ...ISSUE_PAGE, values: [[project.id], size + 1] })).rows;
  if (rows.length > size) return reply.code(500).send({ code: "internal", message: "the bench expects a single page" });
  return { issues: rows.map(issueJson) };
});

await fastify.listen({ port: 0, host: "127.0.0.1" });
const address = fastify.server.address();
process.stdout.write(`${JSON.stringify({ port: typeof address === "object" && address ? address.port : 0 })}\n`);

process.once("SIGTERM", () => {
  void fastify
    .close()
    .then(() => pool.end())
    .finally(() => process.exit(0));
});

// The proto JSON form of the rows: default values (empty strings and lists,
// zero, false) left out, timestamps with their milliseconds, durations in
// seconds.

function projectJson(r: Row): Row {
  return {
    name: `projects/${r.id}`,
    ...(r.title && { title: r.title }),
    ...(r.key && { key: r.key }),
    state: r.state,
    ...(Object.keys(r.labels).length > 0 && { labels: r.labels }),
    ...(r.allow_self_approval !== null && { allowSelfApproval: r.allow_self_approval }),
    ...(r.parallel_tasks_per_rollout && { parallelTasksPerRollout: r.parallel_tasks_per_rollout }),
    lockTimeout: duration(Number(r.lock_timeout_ms)),
    statementTimeout: duration(Number(r.statement_timeout_ms)),
    ...(r.require_plan_check_success && { requirePlanCheckSuccess: true }),
    ...(r.creator && { creator: r.creator }),
    createTime: timestamp(r.create_time),
    updateTime: timestamp(r.update_time),
    ...(r.etag && { etag: r.etag }),
  };
}

function issueJson(r: Row): Row {
  return {
    name: `projects/${r.project_id}/issues/${r.id}`,
    ...(r.title && { title: r.title }),
    ...(r.description && { description: r.description }),
    type: "DATABASE_CHANGE",
    status: r.status,
    plan: `projects/${r.project_id}/plans/${r.plan_id}`,
    ...(r.rollout_id && { rollout: `projects/${r.project_id}/rollouts/${r.rollout_id}` }),
    ...(r.creator && { creator: r.creator }),
    createTime: timestamp(r.create_time),
    updateTime: timestamp(r.update_time),
    ...(r.labels.length > 0 && { labels: r.labels }),
    approvalStatus: r.approval_status,
    ...(r.approval_template && { approvalTemplate: templateJson(r.approval_template) }),
    ...(r.approvers.length > 0 && { approvers: r.approvers.map(approverJson) }),
    ...(r.current_step && { currentStep: r.current_step }),
    ...(r.risk_level && { riskLevel: r.risk_level }),
    ...(r.etag && { etag: r.etag }),
  };
}

/** Its title and description are optional strings: present, they are written even when empty. */
function templateJson(t: Row): Row {
  return {
    ...(typeof t.title === "string" && { title: t.title }),
    ...(typeof t.description === "string" && { description: t.description }),
    ...(t.steps.length > 0 && { steps: t.steps.map((s: Row) => (s.roles.length > 0 ? { roles: s.roles } : {})) }),
  };
}

function approverJson(a: Row): Row {
  return {
    status: a.status,
    ...(a.principal && { principal: a.principal }),
    ...(a.step && { step: a.step }),
    ...(a.comment && { comment: a.comment }),
    time: timestamp(new Date(a.time)),
  };
}

/** "2026-01-02T03:04:05.678Z", without ".000" (proto JSON drops a zero fraction). */
function timestamp(date: Date): string {
  return date.toISOString().replace(".000Z", "Z");
}

/** Whole milliseconds as proto JSON seconds: "10s", "1.500s". */
function duration(ms: number): string {
  const fraction = ms % 1000;
  return `${Math.trunc(ms / 1000)}${fraction ? `.${String(fraction).padStart(3, "0")}` : ""}s`;
}
