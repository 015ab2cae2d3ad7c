// The boundaries of the house (docs/architecture.md), checked by
// `npm run lint` and in CI. Capabilities of shared/ depend in one direction:
// platform ← governance ← identity ← inventory ← change, with sql-editor
// beside change on inventory and notify above change; each is entered
// through its index.ts; the processes (api/, worker/, main.ts, admin.ts) never import each other and
// reach shared/ only through those surfaces.
const CHAIN = ["platform", "governance", "identity", "inventory"];
/** Each capability and the capabilities it may import. */
const IMPORTS = {
  ...Object.fromEntries(CHAIN.map((capability, i) => [capability, CHAIN.slice(0, i)])),
  change: CHAIN,
  "sql-editor": CHAIN,
  notify: [...CHAIN, "change"],
};
const PROCESSES = "^(api/|worker/|main\\.ts$|admin\\.ts$)";
const SURFACE = "^shared/[^/]+/index\\.ts$";
// Inventory also lends its SQL parsers alone to other capabilities, for worker
// threads that must not load it whole (the review's MySQL parser pool).
const LIGHT_SURFACES = ["^shared/inventory/parsers\\.ts$"];

/** One rule per capability: it may not import the capabilities it does not build on. */
const layering = Object.entries(IMPORTS).map(([capability, imports]) => {
  const others = Object.keys(IMPORTS).filter((c) => c !== capability && !imports.includes(c));
  return {
    name: `layering-${capability}`,
    comment: `${capability} builds on ${imports.join(", ") || "nothing"} and may not import ${others.join(", ")}`,
    severity: "error",
    from: { path: `^shared/${capability}/` },
    to: { path: `^shared/(${others.join("|")})/` },
  };
});

module.exports = {
  forbidden: [
    {
      name: "api-worker-apart",
      comment: "the API and the worker talk only through PostgreSQL; main.ts composes them",
      severity: "error",
      from: { path: "^api/" },
      to: { path: "^worker/" },
    },
    {
      name: "worker-api-apart",
      comment: "the API and the worker talk only through PostgreSQL; main.ts composes them",
      severity: "error",
      from: { path: "^worker/" },
      to: { path: "^api/" },
    },
    {
      name: "shared-below-processes",
      comment: "shared/ is the library under the processes; it never imports them",
      severity: "error",
      from: { path: "^shared/" },
      to: { path: PROCESSES },
    },
    {
      name: "processes-use-surfaces",
      comment: "the processes import a capability only through its index.ts",
      severity: "error",
      from: { path: PROCESSES },
      to: { path: "^shared/(?!gen/)[^/]+/", pathNot: SURFACE },
    },
    {
      name: "capability-internals",
      comment: "another capability is entered through its index.ts; its modules and stores are private",
      severity: "error",
      from: { path: "^shared/([^/]+)/" },
      to: { path: "^shared/(?!gen/)[^/]+/", pathNot: [SURFACE, ...LIGHT_SURFACES, "^shared/$1/"] },
    },
    ...layering,
    {
      name: "no-public-types-inside",
      comment: "shared/ uses domain and store types; the transport converts to and from svc.v1",
      severity: "error",
      from: { path: "^shared/", pathNot: "^shared/gen/" },
      to: { path: "^shared/gen/svc/v1/" },
    },
    {
      name: "sql-in-stores",
      comment: "SQL (slonik's tags) is written only in *.store.ts files and the platform's db module",
      severity: "error",
      from: { path: "^(shared|api|worker)/", pathNot: ["\\.store\\.ts$", "^shared/platform/db\\.ts$"] },
      to: { path: "node_modules/slonik/", dependencyTypesNot: ["type-only"] },
    },
    {
      name: "no-cycles",
      comment: "modules import each other in one direction",
      severity: "error",
      from: { path: "^(shared|api|worker)/" },
      to: { circular: true, viaOnly: { dependencyTypesNot: ["type-only"] } },
    },
    {
      name: "production-not-tests",
      comment: "production code never imports the tests or the benchmarks",
      severity: "error",
      from: { path: "^(shared|api|worker)/|^(main|admin)\\.ts$" },
      to: { path: "^(test|bench)/" },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules|^shared/gen/" },
    includeOnly: "^(api/|worker/|shared/|main\\.ts$|admin\\.ts$|node_modules/slonik/)",
    parser: "swc",
    tsPreCompilationDeps: false,
    enhancedResolveOptions: { extensions: [".ts", ".js"] },
  },
};
