// A plan's specs (contract §10.1): each names its target databases, which must
// be active databases of the plan's project, a statement of at most 2 MiB and
// a change type. Spec ids are unique within the plan and generated when absent.
import { randomUUID } from "node:crypto";
import type { CommonQueryMethods } from "slonik";
import { databaseName, type DatabaseRef, ownershipOfDatabases, parseDatabaseName, projectName } from "../../inventory/index.ts";
import { invalidArgument, quoted } from "../../platform/index.ts";

export type ChangeType = "MIGRATE" | "DATA";

export interface PlanSpec {
  id: string;
  /** Database names, as given (instances/<i>/databases/<d>). */
  targets: string[];
  statement: string;
  type: ChangeType;
  /** The release file a spec made from a release applies (contract §13). */
  releaseFile?: ReleaseFileRef;
}

export interface ReleaseFileRef {
  /** projects/<p>/releases/<id> */
  release: string;
  path: string;
  version: string;
  sha256: string;
}

export interface SpecInput {
  id: string;
  targets: readonly string[];
  statement: string;
  type: ChangeType | undefined;
  /** Set by the server only, for a spec made from a release file. */
  releaseFile?: ReleaseFileRef;
}

export const MAX_STATEMENT_BYTES = 2 * 1024 * 1024;
const SPEC_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export async function checkedSpecs(db: CommonQueryMethods, projectId: string, inputs: readonly SpecInput[], field: string): Promise<PlanSpec[]> {
  if (inputs.length === 0) throw invalidArgument(`${field}: a plan needs at least one spec`);
  const ids = new Set<string>();
  const specs = inputs.map((input, i) => {
    const path = `${field}[${i}]`;
    const id = input.id || randomUUID();
    if (!SPEC_ID.test(id)) throw invalidArgument(`${path}.id: ${quoted(id)} is not a valid spec id; use up to 64 letters, digits, "_" and "-"`);
    if (ids.has(id)) throw invalidArgument(`${path}.id: ${quoted(id)} is used by another spec of the plan`);
    ids.add(id);
    if (input.targets.length === 0) throw invalidArgument(`${path}.change_database_config.targets: a spec needs at least one target database`);
    if (!input.statement.trim()) throw invalidArgument(`${path}.change_database_config.statement: is required`);
    if (Buffer.byteLength(input.statement, "utf8") > MAX_STATEMENT_BYTES) {
      throw invalidArgument(`${path}.change_database_config.statement: is larger than 2 MiB`);
    }
    const targets = input.targets.map((t, j) => databaseName(parseDatabaseName(t, `${path}.change_database_config.targets[${j}]`)));
    if (new Set(targets).size !== targets.length) throw invalidArgument(`${path}.change_database_config.targets: a database is listed twice`);
    const spec: PlanSpec = { id, targets, statement: input.statement, type: input.type ?? "MIGRATE" };
    return input.releaseFile ? { ...spec, releaseFile: input.releaseFile } : spec;
  });
  await checkTargetsInProject(db, projectId, specs.flatMap((spec) => spec.targets));
  return specs;
}

/** Every target (a database name) must be an active database of the project. */
export async function checkTargetsInProject(db: CommonQueryMethods, projectId: string, targets: readonly string[]): Promise<void> {
  const refs = new Map<string, DatabaseRef>();
  for (const target of targets) refs.set(target, parseDatabaseName(target, "target"));
  const found = new Map((await ownershipOfDatabases(db, [...refs.values()])).map((o) => [databaseName(o), o]));
  for (const target of refs.keys()) {
    const owner = found.get(target);
    if (!owner || owner.state !== "ACTIVE") throw invalidArgument(`target ${target} is not an active database`);
    if (owner.projectId !== projectId) {
      throw invalidArgument(`target ${target} belongs to ${projectName(owner.projectId)}, not to ${projectName(projectId)}`);
    }
  }
}
