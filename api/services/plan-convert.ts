// Plans ⇄ svc.v1 Plan.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Plan_ChangeDatabaseConfig_Type, Plan_State, PlanSchema, type Plan } from "../../shared/gen/svc/v1/plan_service_pb.js";
import { type CheckRunRow, countByStatus, issueName, type PlanDraft, planName, type PlanRow, rolloutName } from "../../shared/change/index.ts";

/** The plan's issue and rollout ids, when it has them. */
export interface PlanLinks {
  issueId?: string | undefined;
  rolloutId?: string | undefined;
}

export function toPlan(row: PlanRow, latestRun: CheckRunRow | undefined, links: PlanLinks = {}): Plan {
  return create(PlanSchema, {
    name: planName(row),
    title: row.title,
    description: row.description,
    specs: row.specs.map((spec) => ({
      id: spec.id,
      changeDatabaseConfig: { targets: spec.targets, statement: spec.statement, type: Plan_ChangeDatabaseConfig_Type[spec.type] },
      releaseSource: spec.releaseFile && { release: spec.releaseFile.release, file: spec.releaseFile.path, version: spec.releaseFile.version, sha256: spec.releaseFile.sha256 },
      releaseFile: spec.releaseFile, // deprecated: the same as releaseSource
    })),
    state: Plan_State[row.state],
    creator: row.creator,
    createTime: timestampFromDate(row.createTime),
    updateTime: timestampFromDate(row.updateTime),
    issue: links.issueId ? issueName({ projectId: row.projectId, issueId: links.issueId }) : "",
    rollout: links.rolloutId ? rolloutName({ projectId: row.projectId, id: links.rolloutId }) : "",
    planCheckRunStatusCount: latestRun ? countByStatus(latestRun.results) : {},
    etag: row.etag,
  });
}

export function planDraft(plan: Plan | undefined): PlanDraft {
  return {
    title: plan?.title ?? "",
    description: plan?.description ?? "",
    specs: (plan?.specs ?? []).map((spec) => {
      const config = spec.changeDatabaseConfig;
      const type = config?.type ? Plan_ChangeDatabaseConfig_Type[config.type] : undefined;
      return {
        id: spec.id,
        targets: config?.targets ?? [],
        statement: config?.statement ?? "",
        type: type === "MIGRATE" || type === "DATA" ? type : undefined,
      };
    }),
  };
}
