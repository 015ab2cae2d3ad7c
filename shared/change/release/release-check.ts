// Checking a release on target databases (contract §13.1 CheckRelease): the
// plan-check engine (§10.3) on every (file, target), now and without a plan:
// SQL review under the rules of the target's environment, the summary with
// its affected-rows estimate, and a dry run. Files apply in version order, so
// each file's dry run builds on the files before it (shared/engine dry run
// preamble). A file whose version the target already
// records is not checked there: the same checksum leaves it out, another one
// gives one DRY_RUN ERROR, as applying it would be refused (§13.2).
import type { CommonQueryMethods } from "slonik";
import { invalidArgument } from "../../platform/index.ts";
import type { CheckResult } from "../plan-check/check-result.ts";
import { checkTarget, preambleOf, type CheckTarget } from "../plan-check/check-target.ts";
import { projectName } from "../../inventory/index.ts";
import { effectiveRules } from "../review/review.ts";
import { revisionName } from "../revision/revision-names.ts";
import { type Environment, readEnvironments, type SettingReader } from "../../governance/index.ts";
import { checkedFiles, type ReleaseFile, type ReleaseFileInput } from "./release-files.ts";
import { parseReleaseName } from "./release-names.ts";
import { appliedVersions, checkedTargets, type AppliedLookup, type ReleaseTarget } from "./release-targets.ts";
import { activeRelease } from "./releases.ts";

export interface ReleaseCheckDeps {
  db: CommonQueryMethods;
  settings: SettingReader;
  /** The database a target name refers to, with its connection (throws DomainError when it cannot be used). */
  resolveTarget(name: string): Promise<CheckTarget>;
}

export interface ReleaseCheckRequest {
  projectId: string;
  /** A stored release (name alone) or inline files (files alone). */
  release: { name: string; files: readonly ReleaseFileInput[] };
  targets: readonly string[];
}

export type RiskLevel = "LOW" | "MODERATE" | "HIGH";

export interface FileCheck {
  file: string;
  version: string;
  target: string;
  results: CheckResult[];
}

export interface ReleaseCheck {
  /** In file (version) order, then target order. */
  checks: FileCheck[];
  /** The sum of the summaries' affected-rows estimates. */
  affectedRows: number;
  /** HIGH when a result is ERROR, MODERATE when one is WARNING, LOW otherwise. */
  riskLevel: RiskLevel;
}

/** Targets checked at once; each target's files are checked one after the other. */
const PARALLEL_TARGETS = 4;

export async function checkRelease(deps: ReleaseCheckDeps, request: ReleaseCheckRequest): Promise<ReleaseCheck> {
  const files = await filesToCheck(deps.db, request);
  const targets = await checkedTargets(deps.db, request.projectId, request.targets);
  const applied = await appliedVersions(deps.db, targets, files);
  const environments = await readEnvironments(deps.settings);
  const perTarget = await inTurns(targets, PARALLEL_TARGETS, (target) => checkOnTarget(deps, environments, applied, files, target));
  const checks = files.flatMap((_, f) => perTarget.flatMap((fileChecks) => fileChecks[f] ?? []));
  const results = checks.flatMap((c) => c.results);
  return {
    checks,
    affectedRows: results.reduce((sum, r) => sum + (r.summary?.affectedRows ?? 0), 0),
    riskLevel: results.some((r) => r.status === "ERROR") ? "HIGH" : results.some((r) => r.status === "WARNING") ? "MODERATE" : "LOW",
  };
}

async function filesToCheck(db: CommonQueryMethods, request: ReleaseCheckRequest): Promise<readonly ReleaseFile[]> {
  const { name, files } = request.release;
  if (name && files.length > 0) throw invalidArgument("release: give either release.name (a stored release) or release.files, not both");
  if (!name) return checkedFiles(files, "release.files");
  const ref = parseReleaseName(name, "release.name");
  if (ref.projectId !== request.projectId) throw invalidArgument(`release.name: ${name} is not a release of ${projectName(request.projectId)}`);
  return (await activeRelease(db, ref)).files;
}

/** Each file's check on the target, by file index; undefined for a file the target already records with the same checksum. */
async function checkOnTarget(
  deps: ReleaseCheckDeps,
  environments: readonly Environment[],
  applied: AppliedLookup,
  files: readonly ReleaseFile[],
  target: ReleaseTarget,
): Promise<(FileCheck | undefined)[]> {
  const resolved = await deps.resolveTarget(target.name);
  const rules = effectiveRules(resolved.environmentId, environments.find((e) => e.id === resolved.environmentId)?.sqlReviewRules);
  const checks: (FileCheck | undefined)[] = [];
  // Files apply in version order: each dry run builds on the files before it.
  const earlier: string[] = [];
  for (const file of files) {
    const base = { file: file.path, version: file.version, target: target.name };
    const revision = applied(target, file.version);
    if (revision?.sha256 === file.sha256) checks.push(undefined);
    else if (revision) checks.push({ ...base, results: [checksumMismatch(target.name, file, revisionName(revision))] });
    else {
      const spec = { id: "", targets: [target.name], statement: file.statement, type: file.changeType };
      checks.push({ ...base, results: (await checkTarget(resolved, spec, rules, preambleOf(earlier))).results });
      earlier.push(file.statement);
    }
  }
  return checks;
}

function checksumMismatch(target: string, file: ReleaseFile, revision: string): CheckResult {
  return {
    type: "DRY_RUN",
    target,
    specId: "",
    status: "ERROR",
    title: "Version applied with a different checksum",
    content: `version ${file.version} was applied with a different checksum (${revision}); applying ${file.path} would be refused`,
    code: "checksum-mismatch",
    line: 0,
    column: 0,
  };
}

/** The work on every item, at most `width` at a time, results in item order. */
async function inTurns<T, R>(items: readonly T[], width: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, items.length) }, lane));
  return results;
}
