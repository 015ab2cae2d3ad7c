// Projects ⇄ svc.v1 Project.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Project_State, ProjectSchema, type Project } from "../../shared/gen/svc/v1/project_service_pb.js";
import { formatDuration } from "../../shared/platform/index.ts";
import { type ProjectDraft, projectName, type ProjectRow } from "../../shared/inventory/index.ts";

export function toProject(row: ProjectRow): Project {
  return create(ProjectSchema, {
    name: projectName(row.id),
    title: row.title,
    key: row.key,
    state: Project_State[row.state],
    labels: row.labels,
    allowSelfApproval: row.allowSelfApproval,
    parallelTasksPerRollout: row.parallelTasksPerRollout,
    lockTimeout: formatDuration(row.lockTimeoutMs),
    statementTimeout: formatDuration(row.statementTimeoutMs),
    requirePlanCheckSuccess: row.requirePlanCheckSuccess,
    creator: row.creator,
    createTime: timestampFromDate(row.createTime),
    updateTime: timestampFromDate(row.updateTime),
    etag: row.etag,
  });
}

export function projectDraft(project: Project | undefined): ProjectDraft {
  return {
    title: project?.title ?? "",
    key: project?.key ?? "",
    labels: project?.labels ?? {},
    allowSelfApproval: project?.allowSelfApproval,
    parallelTasksPerRollout: project?.parallelTasksPerRollout ?? 0,
    lockTimeout: project?.lockTimeout,
    statementTimeout: project?.statementTimeout,
    requirePlanCheckSuccess: project?.requirePlanCheckSuccess,
  };
}
