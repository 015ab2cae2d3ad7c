// A release's files (contract §13.1, §18.6): each has a path, a version
// unique within the release, a change type and a statement of at most 2 MiB,
// whose sha256 (hex of its UTF-8 bytes) the server computes. Files are kept
// in version order whatever the order given.
import { createHash } from "node:crypto";
import { invalidArgument, quoted } from "../../platform/index.ts";
import { MAX_STATEMENT_BYTES, type ChangeType } from "../plan/plan-specs.ts";
import { compareVersions, isVersion } from "./release-version.ts";

export interface ReleaseFile {
  path: string;
  version: string;
  /** The only file type: applied once per database, in version order. */
  type: "VERSIONED";
  changeType: ChangeType;
  statement: string;
  sha256: string;
}

export interface ReleaseFileInput {
  path: string;
  version: string;
  changeType: ChangeType | undefined;
  statement: string;
}

const MAX_PATH_LENGTH = 1024;

export function statementSha256(statement: string): string {
  return createHash("sha256").update(statement, "utf8").digest("hex");
}

/** The files checked, with their sha256, in version order. */
export function checkedFiles(inputs: readonly ReleaseFileInput[], field: string): ReleaseFile[] {
  if (inputs.length === 0) throw invalidArgument(`${field}: a release needs at least one file`);
  const files = inputs.map((input, i) => checkedFile(input, `${field}[${i}]`));
  files.sort((a, b) => compareVersions(a.version, b.version));
  for (let i = 1; i < files.length; i++) {
    const [before, after] = [files[i - 1]!.version, files[i]!.version];
    if (compareVersions(before, after) === 0) {
      throw invalidArgument(before === after ? `${field}: version ${after} is given twice` : `${field}: versions ${before} and ${after} are the same version`);
    }
  }
  return files;
}

function checkedFile(input: ReleaseFileInput, field: string): ReleaseFile {
  const path = input.path.trim();
  if (!path) throw invalidArgument(`${field}.path: is required`);
  if (path.length > MAX_PATH_LENGTH) throw invalidArgument(`${field}.path: is longer than ${MAX_PATH_LENGTH} characters`);
  if (!isVersion(input.version)) {
    throw invalidArgument(
      `${field}.version: ${quoted(input.version)} is not a valid version; use up to 64 characters of dot-separated parts made of letters, digits, "_" and "-" (e.g. 1.2.10)`,
    );
  }
  if (!input.statement.trim()) throw invalidArgument(`${field}.statement: is required`);
  if (Buffer.byteLength(input.statement, "utf8") > MAX_STATEMENT_BYTES) throw invalidArgument(`${field}.statement: is larger than 2 MiB`);
  return {
    path,
    version: input.version,
    type: "VERSIONED",
    changeType: input.changeType ?? "MIGRATE",
    statement: input.statement,
    sha256: statementSha256(input.statement),
  };
}
