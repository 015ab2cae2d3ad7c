// ReleaseService: releases of versioned change files (contract §13.1).
import { ReleaseService } from "../../shared/gen/svc/v1/release_service_pb.js";
import type { Db, SecretBox } from "../../shared/platform/index.ts";
import {
  checkRelease,
  createPlanFromRelease,
  createRelease,
  deleteRelease,
  getRelease,
  latestRuns,
  listReleasePage,
  parseReleaseName,
  targetResolver,
  undeleteRelease,
  updateReleaseTitle,
} from "../../shared/change/index.ts";
import { parseProjectName } from "../../shared/inventory/index.ts";
import type { SettingReader } from "../../shared/governance/index.ts";
import { auditScope } from "../transport/audit-scope.ts";
import { callerOf } from "../transport/interceptors/authn.ts";
import { registration } from "../transport/services.ts";
import { toPlan } from "./plan-convert.ts";
import { releaseDraft, releaseFiles, toCheckReleaseResponse, toRelease } from "./release-convert.ts";

export interface ReleaseDeps {
  db: Db;
  /** The ENVIRONMENT setting gives each target's review rules. */
  settings: SettingReader;
  /** Opens data-source passwords: CheckRelease reaches the targets. */
  secrets: SecretBox;
}

export function releaseService(deps: ReleaseDeps) {
  return registration(ReleaseService, {
    async getRelease(req) {
      return toRelease(await getRelease(deps.db, parseReleaseName(req.name, "name")));
    },
    async listReleases(req) {
      const page = await listReleasePage(deps.db, { ...req, projectId: parseProjectName(req.parent, "parent") });
      return { releases: page.rows.map(toRelease), nextPageToken: page.nextPageToken };
    },
    async createRelease(req, context) {
      const release = await createRelease(auditScope(context), {
        projectId: parseProjectName(req.parent, "parent"),
        releaseId: req.releaseId,
        requestId: req.requestId,
        creator: callerOf(context).name,
        draft: releaseDraft(req.release),
      });
      return toRelease(release);
    },
    async updateRelease(req, context) {
      const ref = parseReleaseName(req.release?.name ?? "", "release.name");
      return toRelease(await updateReleaseTitle(auditScope(context).tx, ref, req.updateMask?.paths ?? [], req.release?.title ?? ""));
    },
    async deleteRelease(req, context) {
      await deleteRelease(auditScope(context).tx, parseReleaseName(req.name, "name"));
      return {};
    },
    async undeleteRelease(req, context) {
      return toRelease(await undeleteRelease(auditScope(context).tx, parseReleaseName(req.name, "name")));
    },
    async checkRelease(req) {
      const check = await checkRelease(
        { db: deps.db, settings: deps.settings, resolveTarget: targetResolver(deps.db, deps.secrets) },
        {
          projectId: parseProjectName(req.parent, "parent"),
          release: { name: req.release?.name ?? "", files: releaseFiles(req.release) },
          targets: req.targets,
        },
      );
      return toCheckReleaseResponse(check);
    },
    async createPlanFromRelease(req, context) {
      const audit = auditScope(context);
      const plan = await createPlanFromRelease(audit, {
        ref: parseReleaseName(req.name, "name"),
        targets: req.targets,
        title: req.title,
        creator: callerOf(context).name,
      });
      return toPlan(plan, (await latestRuns(audit.tx, plan.projectId, [plan.id])).get(plan.id));
    },
  });
}
