// The thirteen predefined roles (contract §6.2), type BUILT_IN: they cannot be
// changed or deleted, and no custom role may take one of their ids. Each role
// below is written the way its row of the contract reads, over the catalogue.
import { ALL_PERMISSIONS, permission, RESOURCES, verbsOf, type Permission, type Resource, type Verb } from "./permissions.ts";

export interface PredefinedRole {
  readonly id: PredefinedRoleId;
  readonly title: string;
  readonly description: string;
  readonly permissions: ReadonlySet<Permission>;
  /** False for roles that never count as approvers, whatever an approval flow names. */
  readonly canApprove: boolean;
}

/** Role ids (contract §0.3); they compare case-insensitively. */
export const ROLE_ID_PATTERN = /^[a-zA-Z][a-zA-Z0-9-]{0,62}$/;

type Grant = readonly Permission[];

/** Named verbs of one resource: on("issues", "get", "list") = issues.get/list. */
function on<R extends Resource>(resource: R, ...verbs: Verb<R>[]): Grant {
  return verbs.map((verb) => permission(resource, verb));
}

/** Every verb of these resources: every("databases") = databases.*. */
function every(...resources: Resource[]): Grant {
  return resources.flatMap((resource) => on(resource, ...verbsOf(resource)));
}

const READ_VERBS: ReadonlySet<string> = new Set(["get", "list", "getIamPolicy", "getSchema"]);

/** "R on …": each get, list, getIamPolicy and getSchema the catalogue has for these resources. */
function read(...resources: Resource[]): Grant {
  return resources.flatMap((resource) => on(resource, ...verbsOf(resource).filter((verb) => READ_VERBS.has(verb))));
}

/** "all except …": the whole catalogue without the listed permissions. */
function allExcept(...excluded: Grant[]): Grant {
  const dropped = new Set(excluded.flat());
  return ALL_PERMISSIONS.filter((p) => !dropped.has(p));
}

function grant(...parts: Grant[]): Grant {
  return parts.flat();
}

interface RoleRow {
  readonly title: string;
  readonly description: string;
  readonly permissions: Grant;
  readonly neverApproves?: true;
}

const ROWS = {
  workspaceAdmin: {
    title: "Workspace Admin",
    description: "Every permission of the workspace.",
    permissions: ALL_PERMISSIONS,
  },
  workspaceDBA: {
    title: "Workspace DBA",
    description: "Runs instances, databases and changes everywhere; does not manage people, roles, sign-in or settings.",
    permissions: allExcept(
      on("settings", "set"),
      on("workspaces", "setIamPolicy"),
      every("identityProviders"),
      on("roles", "create", "update", "delete"),
      on("users", "create", "delete", "update", "undelete", "unlock"),
      on("groups", "create", "delete", "update"),
    ),
  },
  workspaceMember: {
    title: "Workspace Member",
    description: "Reads the workspace: projects, instances, databases and the change history.",
    permissions: grant(
      on("settings", "get", "list"),
      on("roles", "get", "list"),
      on("users", "get", "list"),
      on("groups", "get", "list"),
      read("projects", "instances", "databases", "issues", "plans", "planCheckRuns"),
      read("rollouts", "taskRuns", "releases", "revisions"),
      on("issueComments", "list"),
    ),
  },
  sqlEditorUser: {
    title: "SQL Editor User",
    description: "Queries databases in the SQL editor.",
    permissions: grant(on("sql", "select", "explain"), read("projects", "databases", "instances")),
  },
  projectOwner: {
    title: "Project Owner",
    description: "Every project-scope permission of the project, its members and its changes.",
    permissions: grant(
      on("projects", "get", "update", "delete", "undelete", "getIamPolicy", "setIamPolicy"),
      every("databases", "issues", "issueComments", "plans", "planCheckRuns", "rollouts", "taskRuns", "releases", "revisions"),
      on("sql", "select", "explain", "export"),
    ),
  },
  projectDeveloper: {
    title: "Project Developer",
    description: "Proposes changes: issues, plans and releases, and checks them.",
    permissions: grant(
      on("projects", "get", "getIamPolicy"),
      on("issues", "create", "get", "list", "update"),
      on("issueComments", "create", "list", "update"),
      on("plans", "create", "get", "list", "update"),
      on("planCheckRuns", "get", "run"),
      on("rollouts", "get", "list"),
      on("taskRuns", "get", "list"),
      on("releases", "create", "get", "list", "check"),
      on("revisions", "get", "list"),
      on("databases", "get", "list", "getSchema", "check"),
    ),
  },
  projectReleaser: {
    title: "Project Releaser",
    description: "Rolls approved changes out and runs their tasks.",
    permissions: grant(
      on("projects", "get"),
      on("issues", "get", "list"),
      on("issueComments", "create", "list"),
      on("plans", "get", "list"),
      on("planCheckRuns", "get", "run"),
      on("rollouts", "create", "get", "list", "update"),
      on("taskRuns", "create", "get", "list"),
      on("releases", "get", "list"),
      on("revisions", "get", "list"),
      on("databases", "get", "list"),
    ),
  },
  projectQuerier: {
    title: "Project Querier",
    description: "Queries the project's databases.",
    permissions: grant(on("projects", "get"), on("databases", "get", "list", "getSchema"), on("sql", "select", "explain")),
  },
  projectExporter: {
    title: "Project Exporter",
    description: "Exports data from the project's databases.",
    permissions: grant(on("projects", "get"), on("databases", "get", "list", "getSchema"), on("sql", "export")),
  },
  projectViewer: {
    title: "Project Viewer",
    description: "Reads the project, its databases and its changes.",
    permissions: grant(
      on("projects", "get", "getIamPolicy"),
      on("issues", "get", "list"),
      on("issueComments", "list"),
      on("plans", "get", "list"),
      on("planCheckRuns", "get"),
      on("rollouts", "get", "list"),
      on("taskRuns", "get", "list"),
      on("releases", "get", "list"),
      on("revisions", "get", "list"),
      on("databases", "get", "list", "getSchema"),
    ),
  },
  secondaryBusinessOps: {
    title: "Secondary Business Ops",
    description: "Follows the project's changes and may be named in approval steps.",
    permissions: grant(
      on("projects", "get"),
      on("issues", "get", "list"),
      on("issueComments", "create", "list"),
      on("plans", "get", "list"),
      on("planCheckRuns", "get"),
      on("rollouts", "get", "list"),
      on("taskRuns", "get", "list"),
    ),
  },
  securityOfficer: {
    title: "Security Officer",
    description: "Manages access, roles, groups, masking policies and sign-in; never approves changes.",
    permissions: grant(
      on("workspaces", "getIamPolicy", "setIamPolicy"),
      on("projects", "get", "list", "getIamPolicy", "setIamPolicy"),
      every("roles"),
      on("users", "get", "list"),
      every("groups"),
      every("policies"),
      on("settings", "get", "list", "set"),
      on("identityProviders", "get"),
      on("auditLogs", "search", "export"),
    ),
    neverApproves: true,
  },
  readOnlyAuditor: {
    title: "Read-only Auditor",
    description: "Reads everything and the audit log; changes nothing, runs no SQL, never approves.",
    permissions: grant(
      read(...RESOURCES),
      on("settings", "get", "list"),
      on("auditLogs", "search", "export"),
      on("workspaces", "getIamPolicy"),
    ),
    neverApproves: true,
  },
} as const satisfies Record<string, RoleRow>;

export type PredefinedRoleId = keyof typeof ROWS;

function toRole(id: PredefinedRoleId): PredefinedRole {
  const row: RoleRow = ROWS[id];
  const { title, description } = row;
  return Object.freeze({ id, title, description, permissions: new Set(row.permissions), canApprove: !row.neverApproves });
}

/** The predefined roles in the contract's order. */
export const PREDEFINED_ROLES: readonly PredefinedRole[] = Object.freeze(
  (Object.keys(ROWS) as PredefinedRoleId[]).map(toRole),
);

const BY_FOLDED_ID: ReadonlyMap<string, PredefinedRole> = new Map(PREDEFINED_ROLES.map((r) => [r.id.toLowerCase(), r]));

/** The predefined role with this id, compared case-insensitively. */
export function predefinedRole(id: string): PredefinedRole | undefined {
  return BY_FOLDED_ID.get(id.toLowerCase());
}
