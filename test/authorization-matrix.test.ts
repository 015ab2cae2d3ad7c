// The authorization matrix (contract §6.1, §6.2, §15.9): every RPC of every
// registered service × each of the 13 predefined roles × a workspace or a
// project binding. The expected outcome comes from the RPC's declared
// permission and the role's permission set; the observed one from calling the
// RPC over Connect. It reads the descriptors, so an RPC added later is in the
// matrix by itself, and an RPC whose handler decides access (auth CUSTOM)
// fails the test until it is given a rule below.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { create, type DescMethod, type DescService } from "@bufbuild/protobuf";
import { Code, ConnectError, createClient, type Transport } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-node";
import { methodOptions } from "../api/transport/method-options.ts";
import { WORKSPACE } from "../shared/identity/iam/authorize.ts";
import { accessScope } from "../shared/inventory/access-scope.ts";
import { isPermission, type Permission } from "../shared/identity/iam/permissions.ts";
import { PREDEFINED_ROLES } from "../shared/identity/iam/predefined-roles.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { restClient } from "./helpers/rest.ts";
import { signIn } from "./helpers/sessions.ts";
import { makeUser } from "./helpers/users.ts";

const PROJECT = "projects/matrix";

/**
 * Methods that check access in their handler, with the request that takes
 * the permission path (acting on someone else), the permission it needs (or
 * a workspace permission that also allows it), and the resource it checks
 * that permission on (workspace resources otherwise).
 */
type Rule = { permission: Permission; orWorkspace?: Permission; request: Record<string, unknown>; resource?: string };

const CUSTOM_RULES: Record<string, Rule> = {
  "svc.v1.UserService.GetUser": { permission: "bb.users.get", request: { name: "users/someone-else" } },
  "svc.v1.UserService.UpdateUser": { permission: "bb.users.update", request: { user: { name: "users/someone-else" }, updateMask: { paths: ["title"] } } },
  "svc.v1.GroupService.UpdateGroup": { permission: "bb.groups.update", request: { group: { name: "groups/nobody-owns" }, updateMask: { paths: ["title"] } } },
  "svc.v1.DatabaseService.UpdateDatabase": {
    permission: "bb.databases.update",
    request: { database: { name: "instances/matrix/databases/none" }, updateMask: { paths: ["labels"] } },
  },
  "svc.v1.DatabaseService.TransferDatabases": {
    permission: "bb.databases.update",
    request: { databases: ["instances/matrix/databases/none"], targetProject: "projects/default" },
  },
  // The security officer manages masking: bb.policies.* also reads and marks a database's columns.
  "svc.v1.DatabaseService.GetDatabaseCatalog": {
    permission: "bb.databases.get",
    orWorkspace: "bb.policies.get",
    request: { name: "instances/matrix/databases/none/catalog" },
  },
  "svc.v1.DatabaseService.UpdateDatabaseCatalog": {
    permission: "bb.databases.update",
    orWorkspace: "bb.policies.update",
    request: { catalog: { name: "instances/matrix/databases/none/catalog" } },
  },
  "svc.v1.PlanService.UpdatePlan": {
    permission: "bb.plans.update",
    request: { plan: { name: `${PROJECT}/plans/1` }, updateMask: { paths: ["title"] } },
    resource: PROJECT,
  },
  "svc.v1.IssueService.ListIssues": { permission: "bb.issues.list", request: { parent: PROJECT }, resource: PROJECT },
  "svc.v1.IssueService.UpdateIssue": {
    permission: "bb.issues.update",
    request: { issue: { name: `${PROJECT}/issues/1` }, updateMask: { paths: ["title"] } },
    resource: PROJECT,
  },
  // Approving and rejecting need the issue in sight; the step's roles decide the rest (test/approval.test.ts).
  "svc.v1.IssueService.ApproveIssue": { permission: "bb.issues.get", request: { name: `${PROJECT}/issues/1` }, resource: PROJECT },
  "svc.v1.IssueService.RejectIssue": { permission: "bb.issues.get", request: { name: `${PROJECT}/issues/1` }, resource: PROJECT },
  "svc.v1.IssueService.RequestIssueReview": { permission: "bb.issues.update", request: { name: `${PROJECT}/issues/1` }, resource: PROJECT },
};

interface Principal {
  role: string;
  scope: "workspace" | "project";
  transport: Transport;
}

describe("authorization matrix", () => {
  let app: TestApp;
  const principals: Principal[] = [];
  const services: DescService[] = [];

  before(async () => {
    app = await startTestApp();
    const rest = restClient(app.baseUrl);
    const workspaceBindings: unknown[] = [];
    const projectBindings: unknown[] = [];
    for (const role of PREDEFINED_ROLES) {
      for (const scope of ["workspace", "project"] as const) {
        (scope === "workspace" ? workspaceBindings : projectBindings).push({ role: `roles/${role.id}`, members: [`user:login_id=${loginIdOf(role.id, scope)}`] });
        principals.push({ role: role.id, scope, transport: undefined as never });
      }
    }
    await Promise.all(principals.map((p) => makeUser(app.db, loginIdOf(p.role, p.scope))));
    // Exactly these bindings: no one holds anything else (not even workspaceMember).
    await adminQuery(`update iam_policy set bindings = '${JSON.stringify(workspaceBindings)}' where scope = '${WORKSPACE}'`, app.database.url);
    await adminQuery(`insert into iam_policy (scope, bindings) values ('${PROJECT}', '${JSON.stringify(projectBindings)}')`, app.database.url);
    await Promise.all(principals.map(async (p) => (p.transport = transportFor(app, await signIn(rest, loginIdOf(p.role, p.scope))))));
    services.push(...app.services.filter((s) => s.typeName.startsWith("svc.v1.")));
  });
  after(() => app.close());

  it("gives every RPC with a handler-decided access a rule here", () => {
    const missing = allMethods(services).filter((m) => methodOptions(m).access.kind === "custom" && !(fullName(m) in CUSTOM_RULES));
    assert.deepEqual(missing.map(fullName), [], "add these auth CUSTOM methods to CUSTOM_RULES");
  });

  it("refuses every non-public RPC without a credential", async () => {
    const anonymous = transportFor(app, "");
    for (const method of allMethods(services)) {
      if (methodOptions(method).access.kind === "public") continue;
      const code = await outcome(anonymous, method, {});
      assert.equal(code?.code, Code.Unauthenticated, `${fullName(method)} without a credential answered ${code?.code ?? "ok"}`);
    }
  });

  it("allows exactly what each role's permissions allow, at workspace and project scope", async () => {
    const mismatches: string[] = [];
    let checked = 0;
    for (const method of allMethods(services)) {
      const rule = ruleOf(method);
      if (!rule) continue;
      // Handler-decided methods name their resource in their rule: one request form.
      for (const scopeOfRequest of rule.resource ? [rule.resource] : methodOptions(method).access.kind === "custom" ? [WORKSPACE] : [WORKSPACE, PROJECT]) {
        const request = scopeOfRequest === PROJECT && !rule.resource ? inProject(method, rule.request) : rule.request;
        const decidedAt = await accessScope(app.db, rule.permission, scopeOfRequest);
        await Promise.all(
          principals.map(async (principal) => {
            const role = PREDEFINED_ROLES.find((r) => r.id === principal.role)!;
            const bindingApplies = principal.scope === "workspace" || decidedAt === PROJECT;
            const orWorkspace = principal.scope === "workspace" && rule.orWorkspace !== undefined && role.permissions.has(rule.orWorkspace);
            const expected = (bindingApplies && role.permissions.has(rule.permission)) || orWorkspace;
            const error = await outcome(principal.transport, method, request);
            // Inside a project the principal cannot see at all, a refusal reads as not_found (§18.4).
            const hidden = decidedAt === PROJECT && !role.permissions.has("bb.projects.get");
            const refused = hidden
              ? error?.code === Code.NotFound && error.rawMessage === `${PROJECT} does not exist`
              : error?.code === Code.PermissionDenied && error.rawMessage.startsWith(`permission ${rule.permission} required`);
            const got = error ? `${Code[error.code]} ${error.rawMessage}` : "ok";
            if (refused === expected) mismatches.push(`${fullName(method)} as ${principal.role}@${principal.scope} on ${scopeOfRequest}: expected ${expected ? "allowed" : "denied"}, got ${got}`);
            checked++;
          }),
        );
      }
    }
    assert.deepEqual(mismatches, []);
    assert.ok(checked >= 13 * 2 * 2 * 5, `only ${checked} checks ran`);
  });
});

function loginIdOf(role: string, scope: string): string {
  return `${role.toLowerCase()}-${scope}`;
}

function allMethods(services: readonly DescService[]): DescMethod[] {
  return services.flatMap((s) => s.methods);
}

function fullName(method: DescMethod): string {
  return `${method.parent.typeName}.${method.name}`;
}

/** The permission a method needs and a request that reaches the check, or undefined when none applies. */
function ruleOf(method: DescMethod): Rule | undefined {
  const access = methodOptions(method).access;
  if (access.kind === "iam" && isPermission(access.permission)) return { permission: access.permission, request: {} };
  if (access.kind !== "custom") return undefined;
  return CUSTOM_RULES[fullName(method)];
}

/** The request naming a resource inside the project (for project-scoped checks). */
function inProject(method: DescMethod, request: Record<string, unknown>): Record<string, unknown> {
  for (const key of ["name", "resource", "parent"]) {
    if (method.input.fields.some((f) => f.localName === key && f.fieldKind === "scalar")) return { ...request, [key]: PROJECT };
  }
  // Update methods name the resource inside their message field (project.name).
  const holder = method.input.fields.find((f) => f.fieldKind === "message" && f.message.fields.some((g) => g.localName === "name"));
  return holder ? { ...request, [holder.localName]: { name: PROJECT } } : request;
}

function transportFor(app: TestApp, token: string): Transport {
  return createConnectTransport({
    baseUrl: app.baseUrl,
    httpVersion: "1.1",
    interceptors: [
      (next) => (req) => {
        if (token) req.header.set("authorization", `Bearer ${token}`);
        return next(req);
      },
    ],
  });
}

/** The error a call ends with, or undefined when it succeeds. */
async function outcome(transport: Transport, method: DescMethod, request: Record<string, unknown>): Promise<ConnectError | undefined> {
  const client = createClient(method.parent, transport) as unknown as Record<string, (req: unknown) => unknown>;
  try {
    const result = client[method.localName]!(create(method.input, request as never));
    if (method.methodKind === "server_streaming") for await (const _ of result as AsyncIterable<unknown>) break;
    else await result;
    return undefined;
  } catch (error) {
    return ConnectError.from(error);
  }
}
