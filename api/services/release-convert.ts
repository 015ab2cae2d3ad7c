// Releases ⇄ svc.v1 Release, and release checks → CheckReleaseResponse.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  CheckReleaseResponse_RiskLevel,
  CheckReleaseResponseSchema,
  Release_File_ChangeType,
  Release_File_Type,
  Release_State,
  ReleaseSchema,
  type CheckReleaseResponse,
  type Release,
} from "../../shared/gen/svc/v1/release_service_pb.js";
import { type ReleaseCheck, type ReleaseDraft, type ReleaseFileInput, releaseName, type ReleaseRow } from "../../shared/change/index.ts";
import { toCheckResult } from "./plan-check-run-convert.ts";

export function toRelease(row: ReleaseRow): Release {
  return create(ReleaseSchema, {
    name: releaseName(row),
    title: row.title,
    files: row.files.map((file) => ({
      path: file.path,
      version: file.version,
      type: Release_File_Type[file.type],
      changeType: Release_File_ChangeType[file.changeType],
      statement: file.statement,
      sha256: file.sha256,
    })),
    vcsSource: row.vcsSource,
    state: Release_State[row.state],
    creator: row.creator,
    createTime: timestampFromDate(row.createTime),
    updateTime: timestampFromDate(row.updateTime),
  });
}

export function releaseDraft(release: Release | undefined): ReleaseDraft {
  const vcs = release?.vcsSource;
  return {
    title: release?.title ?? "",
    files: releaseFiles(release),
    vcsSource: vcs && (vcs.url || vcs.commit) ? { url: vcs.url, commit: vcs.commit } : undefined,
  };
}

export function releaseFiles(release: Release | undefined): ReleaseFileInput[] {
  return (release?.files ?? []).map((file) => {
    const changeType = file.changeType ? Release_File_ChangeType[file.changeType] : undefined;
    return {
      path: file.path,
      version: file.version,
      changeType: changeType === "MIGRATE" || changeType === "DATA" ? changeType : undefined,
      statement: file.statement,
    };
  });
}

export function toCheckReleaseResponse(check: ReleaseCheck): CheckReleaseResponse {
  return create(CheckReleaseResponseSchema, {
    results: check.checks.map((c) => ({ file: c.file, version: c.version, target: c.target, advices: c.results.map(toCheckResult) })),
    affectedRows: BigInt(check.affectedRows),
    riskLevel: CheckReleaseResponse_RiskLevel[check.riskLevel],
  });
}
