// The predefined roles against the rows of contract §6.2.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { ALL_PERMISSIONS, isPermission, permissionScope, type Permission } from "./permissions.ts";
import { PREDEFINED_ROLES, predefinedRole, ROLE_ID_PATTERN, type PredefinedRole } from "./predefined-roles.ts";

function role(id: string): PredefinedRole {
  const found = predefinedRole(id);
  assert.ok(found, `no predefined role ${id}`);
  return found;
}

function sorted(role: PredefinedRole): string[] {
  return [...role.permissions].sort();
}

function assertHas(id: string, has: string[], lacks: string[] = []): void {
  const { permissions } = role(id);
  for (const p of has) assert.ok(permissions.has(p as Permission), `${id} should have ${p}`);
  for (const p of lacks) assert.ok(!permissions.has(p as Permission), `${id} should not have ${p}`);
}

const verbOf = (p: string) => p.split(".")[2] ?? "";

describe("predefined roles", () => {
  it("are the thirteen of §6.2, in its order", () => {
    assert.deepEqual(PREDEFINED_ROLES.map((r) => r.id), [
      "workspaceAdmin", "workspaceDBA", "workspaceMember", "sqlEditorUser", "projectOwner", "projectDeveloper",
      "projectReleaser", "projectQuerier", "projectExporter", "projectViewer", "secondaryBusinessOps",
      "securityOfficer", "readOnlyAuditor",
    ]);
  });

  it("grant only catalogue permissions and have a title and description", () => {
    for (const r of PREDEFINED_ROLES) {
      assert.deepEqual([...r.permissions].filter((p) => !isPermission(p)), [], r.id);
      assert.ok(r.permissions.size > 0 && r.title !== "" && r.description !== "", r.id);
      assert.ok(ROLE_ID_PATTERN.test(r.id), r.id);
    }
  });

  it("count as approvers except securityOfficer and readOnlyAuditor", () => {
    const never = PREDEFINED_ROLES.filter((r) => !r.canApprove).map((r) => r.id);
    assert.deepEqual(never, ["securityOfficer", "readOnlyAuditor"]);
    assert.equal(role("securityOfficer").canApprove, false);
    assert.equal(role("secondaryBusinessOps").canApprove, true);
  });
});

describe("workspace roles", () => {
  it("workspaceAdmin has every permission", () => {
    assert.deepEqual(sorted(role("workspaceAdmin")), [...ALL_PERMISSIONS]);
  });

  it("workspaceDBA has all but the listed exceptions", () => {
    const idps = ALL_PERMISSIONS.filter((p) => p.startsWith("bb.identityProviders."));
    assert.equal(idps.length, 4);
    assertHas("workspaceDBA", ["bb.instances.create", "bb.auditLogs.search", "bb.sql.admin", "bb.roles.get", "bb.users.list"],
      ["bb.settings.set", "bb.workspaces.setIamPolicy", ...idps, "bb.roles.create", "bb.users.unlock", "bb.groups.update"]);
    assert.equal(role("workspaceDBA").permissions.size, ALL_PERMISSIONS.length - 17);
  });

  it("workspaceMember reads but cannot create projects or set settings", () => {
    assertHas("workspaceMember",
      ["bb.projects.getIamPolicy", "bb.databases.getSchema", "bb.planCheckRuns.get", "bb.issueComments.list", "bb.settings.get"],
      ["bb.projects.create", "bb.settings.set", "bb.planCheckRuns.run", "bb.issueComments.create", "bb.sql.select",
        "bb.workspaces.getIamPolicy", "bb.auditLogs.search", "bb.policies.get"]);
    assert.ok([...role("workspaceMember").permissions].every((p) => ["get", "list", "getIamPolicy", "getSchema"].includes(verbOf(p))));
  });

  it("sqlEditorUser queries and reads projects, databases and instances", () => {
    assert.deepEqual(sorted(role("sqlEditorUser")), [
      "bb.databases.get", "bb.databases.getSchema", "bb.databases.list", "bb.instances.get", "bb.instances.list",
      "bb.projects.get", "bb.projects.getIamPolicy", "bb.projects.list", "bb.sql.explain", "bb.sql.select",
    ]);
  });

  it("securityOfficer manages access but not people or instances", () => {
    assertHas("securityOfficer",
      ["bb.roles.create", "bb.roles.delete", "bb.groups.create", "bb.policies.update", "bb.settings.set",
        "bb.workspaces.setIamPolicy", "bb.projects.setIamPolicy", "bb.identityProviders.get", "bb.auditLogs.export"],
      ["bb.users.create", "bb.identityProviders.update", "bb.instances.get", "bb.databases.get", "bb.sql.select"]);
    assert.equal(role("securityOfficer").permissions.size, 26);
  });

  it("readOnlyAuditor reads everything and changes nothing", () => {
    const auditor = [...role("readOnlyAuditor").permissions];
    const readVerbs = ["get", "list", "getIamPolicy", "getSchema", "search", "export"];
    assert.deepEqual(auditor.filter((p) => !readVerbs.includes(verbOf(p))), []);
    assert.deepEqual(auditor.filter((p) => p.startsWith("bb.sql.")), []);
    assertHas("readOnlyAuditor",
      ["bb.identityProviders.get", "bb.policies.get", "bb.planCheckRuns.get", "bb.projects.getIamPolicy",
        "bb.workspaces.getIamPolicy", "bb.auditLogs.search", "bb.auditLogs.export", "bb.databases.getSchema"],
      ["bb.workspaces.setIamPolicy", "bb.settings.set"]);
  });
});

describe("project roles", () => {
  const projectRoles = ["projectOwner", "projectDeveloper", "projectReleaser", "projectQuerier", "projectExporter",
    "projectViewer", "secondaryBusinessOps"];

  it("hold only project-scope permissions", () => {
    for (const id of projectRoles) {
      assert.deepEqual([...role(id).permissions].filter((p) => permissionScope(p) !== "project"), [], id);
    }
  });

  it("projectOwner has every project-scope permission but sql.admin", () => {
    const expected = ALL_PERMISSIONS.filter((p) => permissionScope(p) === "project" && p !== "bb.sql.admin");
    assert.deepEqual(sorted(role("projectOwner")), expected);
  });

  it("projectDeveloper checks databases but does not update them", () => {
    assertHas("projectDeveloper", ["bb.databases.check", "bb.releases.check", "bb.plans.create", "bb.projects.getIamPolicy"],
      ["bb.databases.update", "bb.rollouts.create", "bb.taskRuns.create", "bb.releases.delete", "bb.sql.select"]);
  });

  it("projectReleaser rolls out but does not write plans", () => {
    assertHas("projectReleaser", ["bb.rollouts.update", "bb.taskRuns.create", "bb.planCheckRuns.run"],
      ["bb.plans.create", "bb.issues.create", "bb.releases.create", "bb.projects.getIamPolicy"]);
  });

  it("projectQuerier queries and projectExporter exports", () => {
    const base = ["bb.databases.get", "bb.databases.getSchema", "bb.databases.list", "bb.projects.get"];
    assert.deepEqual(sorted(role("projectQuerier")), [...base, "bb.sql.explain", "bb.sql.select"]);
    assert.deepEqual(sorted(role("projectExporter")), [...base, "bb.sql.export"]);
  });

  it("projectViewer only reads and secondaryBusinessOps may comment", () => {
    assert.ok([...role("projectViewer").permissions].every((p) => ["get", "list", "getIamPolicy", "getSchema"].includes(verbOf(p))));
    assertHas("secondaryBusinessOps", ["bb.issueComments.create", "bb.taskRuns.list"],
      ["bb.issues.create", "bb.databases.get", "bb.releases.get", "bb.planCheckRuns.run"]);
  });
});

describe("predefinedRole", () => {
  it("finds a role whatever the case", () => {
    for (const id of ["workspaceAdmin", "workspaceadmin", "WORKSPACEADMIN", "WorkSpaceAdmin"]) {
      assert.equal(predefinedRole(id)?.id, "workspaceAdmin", id);
    }
    assert.equal(predefinedRole("readonlyauditor")?.id, "readOnlyAuditor");
  });

  it("returns undefined for anything else", () => {
    for (const id of ["", "admin", "roles/workspaceAdmin", "workspaceAdmin ", "toString", "__proto__"]) {
      assert.equal(predefinedRole(id), undefined, id);
    }
  });
});

describe("ROLE_ID_PATTERN", () => {
  for (const id of ["a", "workspaceAdmin", "data-team-2", "Z" + "x".repeat(62)]) {
    it(`accepts ${id.slice(0, 20)}`, () => assert.ok(ROLE_ID_PATTERN.test(id)));
  }
  for (const id of ["", "1role", "-role", "role_x", "role.x", "rôle", "a" + "x".repeat(63), "role\n"]) {
    it(`refuses ${JSON.stringify(id.slice(0, 20))}`, () => assert.ok(!ROLE_ID_PATTERN.test(id)));
  }
});
