// What the figures that drive the real API share: a workspace admin written
// into the bench database, a REST client signed in as it, and instance
// databases moved into a project once an instance sync has found them.
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import { stderrLogger } from "./database.ts";
import { makeUser } from "../../test/helpers/users.ts";
import { createDb } from "../../shared/platform/db.ts";
import { findPolicies, replacePolicy } from "../../shared/identity/iam/iam-policy.store.ts";
import { userMember } from "../../shared/identity/iam/members.ts";

export type Json = Record<string, any>;

export interface Login {
  loginId: string;
  password: string;
}

/** A user bound to roles/workspaceAdmin (it may create projects, instances and settings). */
export async function createWorkspaceAdmin(databaseUrl: string, login: Login): Promise<void> {
  const db = await createDb(databaseUrl, stderrLogger());
  try {
    await makeUser(db, login.loginId, login.password);
    const [workspace] = await findPolicies(db, ["workspaces/-"]);
    const binding = { role: "roles/workspaceAdmin", members: [userMember(login.loginId)] };
    await replacePolicy(db, "workspaces/-", [...(workspace?.bindings ?? []), binding], "bench");
  } finally {
    await db.end();
  }
}

export interface Api {
  /** The signed-in user's access token. */
  token: string;
  /** A REST call with the token; a non-2xx answer throws. */
  call(method: string, path: string, body?: unknown): Promise<Json>;
}

export async function apiClient(port: number, login: Login): Promise<Api> {
  const base = `http://127.0.0.1:${port}`;
  const send = async (method: string, path: string, body: unknown, token: string) => {
    const reply = await fetch(`${base}${path}`, {
      method,
      headers: { "content-type": "application/json", ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const json = (await reply.json()) as Json;
    if (!reply.ok) throw new Error(`${method} ${path}: ${reply.status} ${JSON.stringify(json)}`);
    return json;
  };
  const token = String((await send("POST", "/v1/auth/login", login, "")).accessToken);
  return { token, call: (method, path, body) => send(method, path, body, token) };
}

/**
 * Moves the instance's databases `names` into the project once a sync of the
 * instance (a worker must run) has found them, after that sync has ended: a
 * sync still reading the schemas of hundreds of databases would share the
 * worker with what is measured next.
 */
export async function adopt(api: Api, databaseUrl: string, where: { instance: string; project: string }, names: readonly string[]): Promise<void> {
  const wanted = names.map((name) => `instances/${where.instance}/databases/${name}`);
  for (let attempt = 0; ; attempt++) {
    const listed = await api.call("GET", `/v1/instances/${where.instance}/databases?pageSize=1000`);
    const found = new Set(((listed.databases ?? []) as Json[]).map((d) => d.name as string));
    if (wanted.every((name) => found.has(name))) break;
    if (attempt === 600) throw new Error(`the sync of instance ${where.instance} did not find its bench databases`);
    if (attempt % 20 === 0) await api.call("POST", `/v1/instances/${where.instance}:sync`, {});
    await sleep(500);
  }
  await jobsEnded(databaseUrl, "instance.sync");
  await api.call("POST", "/v1/databases:transfer", { databases: wanted, targetProject: `projects/${where.project}` });
}

/** Waits until the job queue holds no job of the task (e.g. "plan.check"). */
export async function jobsEnded(databaseUrl: string, task: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const pending = async () =>
      Number((await client.query("select count(*) as n from graphile_worker.jobs where task_identifier = $1", [task])).rows[0].n);
    while ((await pending()) > 0) await sleep(100);
  } finally {
    await client.end();
  }
}

/** Runs one statement on its own connection. */
export async function adminQuery(databaseUrl: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}
