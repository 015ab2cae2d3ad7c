// Revisions ⇄ svc.v1 Revision.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { RevisionSchema, type Revision } from "../../shared/gen/svc/v1/revision_service_pb.js";
import { type BaselineDraft, revisionName, type RevisionRow, taskRunName } from "../../shared/change/index.ts";

export function toRevision(row: RevisionRow): Revision {
  return create(RevisionSchema, {
    name: revisionName(row),
    release: row.release,
    file: row.file,
    version: row.version,
    sha256: row.sha256,
    taskRun: row.taskRun ? taskRunName(row.taskRun.rollout, row.taskRun.taskId, row.taskRun.id) : "",
    creator: row.creator,
    createTime: timestampFromDate(row.createTime),
    deleted: row.deleteTime !== undefined,
    deleteTime: row.deleteTime && timestampFromDate(row.deleteTime),
  });
}

export function baselineDraft(revision: Revision | undefined): BaselineDraft {
  return {
    release: revision?.release.trim() ?? "",
    file: revision?.file ?? "",
    version: revision?.version.trim() ?? "",
    sha256: revision?.sha256.trim() ?? "",
  };
}
