// The bb.* permission catalogue (contract §6.1): every permission the service
// knows, and whether it is granted at workspace or at project scope. A
// permission string outside this table is refused by CreateRole/UpdateRole.

export type Scope = "workspace" | "project";

interface ResourceEntry {
  readonly scope: Scope;
  readonly verbs: readonly string[];
  /** Verbs held at workspace scope although the resource lives in a project. */
  readonly workspaceVerbs?: readonly string[];
}

const CATALOGUE = {
  auditLogs: { scope: "workspace", verbs: ["search", "export"] },
  databases: { scope: "project", verbs: ["get", "list", "update", "getSchema", "sync", "check"] },
  groups: { scope: "workspace", verbs: ["create", "delete", "get", "list", "update"] },
  identityProviders: { scope: "workspace", verbs: ["create", "delete", "get", "update"] },
  instances: { scope: "workspace", verbs: ["create", "delete", "get", "list", "sync", "undelete", "update"] },
  issueComments: { scope: "project", verbs: ["create", "list", "update"] },
  issues: { scope: "project", verbs: ["create", "get", "list", "update"] },
  planCheckRuns: { scope: "project", verbs: ["get", "run"] },
  plans: { scope: "project", verbs: ["create", "get", "list", "update"] },
  policies: { scope: "workspace", verbs: ["get", "update"] },
  projects: {
    scope: "project",
    verbs: ["create", "delete", "get", "list", "update", "undelete", "getIamPolicy", "setIamPolicy"],
    workspaceVerbs: ["create", "list"],
  },
  releases: { scope: "project", verbs: ["check", "create", "delete", "get", "list", "update"] },
  revisions: { scope: "project", verbs: ["create", "delete", "get", "list"] },
  roles: { scope: "workspace", verbs: ["create", "delete", "get", "list", "update"] },
  rollouts: { scope: "project", verbs: ["create", "get", "list", "update"] },
  settings: { scope: "workspace", verbs: ["get", "list", "set"] },
  sql: { scope: "project", verbs: ["select", "explain", "export", "admin"] },
  taskRuns: { scope: "project", verbs: ["create", "get", "list"] },
  users: { scope: "workspace", verbs: ["create", "delete", "get", "list", "update", "undelete", "unlock"] },
  workspaces: { scope: "workspace", verbs: ["getIamPolicy", "setIamPolicy"] },
} as const satisfies Record<string, ResourceEntry>;

type Catalogue = typeof CATALOGUE;
export type Resource = keyof Catalogue;
export type Verb<R extends Resource> = Catalogue[R]["verbs"][number];
/** One catalogue entry, e.g. "bb.projects.getIamPolicy"; a typo does not typecheck. */
export type Permission = { [R in Resource]: `bb.${R}.${Verb<R>}` }[Resource];

/** The catalogue's resources, in the contract's order. */
export const RESOURCES: readonly Resource[] = Object.freeze(Object.keys(CATALOGUE) as Resource[]);

/** The verbs the catalogue lists for one resource. */
export function verbsOf<R extends Resource>(resource: R): readonly Verb<R>[] {
  const verbs: readonly Verb<R>[] = CATALOGUE[resource].verbs;
  return verbs;
}

/** The permission for one verb of one resource: permission("settings", "set"). */
export function permission<R extends Resource>(resource: R, verb: Verb<R>): Permission {
  return `bb.${resource}.${verb}` as Permission;
}

const SCOPES: ReadonlyMap<string, Scope> = new Map(RESOURCES.flatMap(scopesOf));

function scopesOf(resource: Resource): [Permission, Scope][] {
  const entry: ResourceEntry = CATALOGUE[resource];
  return verbsOf(resource).map((verb) => {
    const scope = entry.workspaceVerbs?.includes(verb) ? "workspace" : entry.scope;
    return [permission(resource, verb), scope];
  });
}

/** Every permission of the catalogue, sorted. */
export const ALL_PERMISSIONS: readonly Permission[] = Object.freeze([...SCOPES.keys()].sort() as Permission[]);

export function isPermission(s: string): s is Permission {
  return SCOPES.has(s);
}

/** Where a binding must sit to grant this permission. */
export function permissionScope(p: Permission): Scope {
  const scope = SCOPES.get(p);
  if (scope === undefined) throw new Error(`"${p}" is not in the permission catalogue`);
  return scope;
}

/** The entries of `list` that are not catalogue permissions, once each, in their order. */
export function unknownPermissions(list: readonly string[]): string[] {
  return [...new Set(list)].filter((p) => !isPermission(p));
}
