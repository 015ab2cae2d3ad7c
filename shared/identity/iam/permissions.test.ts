// The permission catalogue against the rows of contract §6.1.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  ALL_PERMISSIONS,
  isPermission,
  permission,
  permissionScope,
  RESOURCES,
  unknownPermissions,
  verbsOf,
} from "./permissions.ts";

// Verb counts per resource as §6.1 lists them.
const VERB_COUNTS: Record<string, number> = {
  auditLogs: 2, databases: 6, groups: 5, identityProviders: 4, instances: 7, issueComments: 3, issues: 4,
  planCheckRuns: 2, plans: 4, policies: 2, projects: 8, releases: 6, revisions: 4, roles: 5, rollouts: 4,
  settings: 3, sql: 4, taskRuns: 3, users: 7, workspaces: 2,
};

const WORKSPACE_RESOURCES = [
  "auditLogs", "groups", "identityProviders", "instances", "policies", "roles", "settings", "users", "workspaces",
];

describe("permission catalogue", () => {
  it("has the twenty resources of §6.1 with their verb counts", () => {
    assert.deepEqual(Object.fromEntries(RESOURCES.map((r) => [r, verbsOf(r).length])), VERB_COUNTS);
  });

  it("lists 85 permissions, sorted and once each", () => {
    assert.equal(ALL_PERMISSIONS.length, 85);
    assert.deepEqual([...ALL_PERMISSIONS].sort(), ALL_PERMISSIONS);
    assert.equal(new Set(ALL_PERMISSIONS).size, ALL_PERMISSIONS.length);
    assert.ok(ALL_PERMISSIONS.every((p) => /^bb\.[a-zA-Z]+\.[a-zA-Z]+$/.test(p)));
  });

  it("is frozen", () => {
    assert.throws(() => (ALL_PERMISSIONS as string[]).push("bb.x.y"), TypeError);
  });

  it("names the verbs the contract gives", () => {
    for (const p of ["bb.databases.check", "bb.sql.admin", "bb.releases.check", "bb.users.unlock", "bb.auditLogs.export"]) {
      assert.ok(ALL_PERMISSIONS.includes(p as never), p);
    }
    assert.equal(permission("projects", "getIamPolicy"), "bb.projects.getIamPolicy");
  });
});

describe("isPermission", () => {
  it("accepts catalogue entries", () => {
    assert.equal(isPermission("bb.settings.set"), true);
    assert.equal(isPermission("bb.workspaces.setIamPolicy"), true);
  });

  for (const s of ["bb.settings.update", "bb.databases.delete", "bb.planCheckRuns.list", "settings.set", "bb.settings",
    "bb.settings.set.x", "BB.settings.set", "bb.Settings.set", "", "bb.toString.get", "bb.role.assign"]) {
    it(`refuses ${JSON.stringify(s)}`, () => assert.equal(isPermission(s), false));
  }
});

describe("permissionScope", () => {
  it("puts projects.create and projects.list at workspace scope, other projects verbs at project scope", () => {
    assert.equal(permissionScope("bb.projects.create"), "workspace");
    assert.equal(permissionScope("bb.projects.list"), "workspace");
    for (const verb of ["delete", "get", "update", "undelete", "getIamPolicy", "setIamPolicy"] as const) {
      assert.equal(permissionScope(permission("projects", verb)), "project", verb);
    }
  });

  it("follows the scope column for every other resource", () => {
    for (const p of ALL_PERMISSIONS.filter((p) => !p.startsWith("bb.projects."))) {
      const resource = p.split(".")[1] ?? "";
      assert.equal(permissionScope(p), WORKSPACE_RESOURCES.includes(resource) ? "workspace" : "project", p);
    }
  });

  it("throws for a string forced past the type", () => {
    assert.throws(() => permissionScope("bb.nothing.get" as never), /not in the permission catalogue/);
  });
});

describe("unknownPermissions", () => {
  it("is empty when every entry is known", () => {
    assert.deepEqual(unknownPermissions([...ALL_PERMISSIONS]), []);
    assert.deepEqual(unknownPermissions([]), []);
  });

  it("returns the unknown entries once each, in their order", () => {
    const list = ["bb.issues.get", "bb.issues.delete", "bb.sql.query", "bb.issues.delete", "issues.get"];
    assert.deepEqual(unknownPermissions(list), ["bb.issues.delete", "bb.sql.query", "issues.get"]);
  });
});
