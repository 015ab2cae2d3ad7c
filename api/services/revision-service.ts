// RevisionService: the release versions each database has applied (contract
// §13.2). Permissions are checked on the database's project.
import { parseDatabaseName } from "../../shared/inventory/index.ts";
import { RevisionService } from "../../shared/gen/svc/v1/revision_service_pb.js";
import type { Db } from "../../shared/platform/index.ts";
import { createBaseline, deleteRevision, getRevision, listRevisionPage, parseRevisionName } from "../../shared/change/index.ts";
import { auditScope } from "../transport/audit-scope.ts";
import { callerOf } from "../transport/interceptors/authn.ts";
import { registration } from "../transport/services.ts";
import { baselineDraft, toRevision } from "./revision-convert.ts";

export interface RevisionDeps {
  db: Db;
}

export function revisionService(deps: RevisionDeps) {
  return registration(RevisionService, {
    async listRevisions(req) {
      const page = await listRevisionPage(deps.db, { ...req, database: parseDatabaseName(req.parent, "parent") });
      return { revisions: page.rows.map(toRevision), nextPageToken: page.nextPageToken };
    },
    async getRevision(req) {
      return toRevision(await getRevision(deps.db, parseRevisionName(req.name, "name")));
    },
    async createRevision(req, context) {
      const audit = auditScope(context);
      const revision = await createBaseline(audit, parseDatabaseName(req.parent, "parent"), baselineDraft(req.revision), callerOf(context).name);
      return toRevision(revision);
    },
    async deleteRevision(req, context) {
      await deleteRevision(auditScope(context).tx, parseRevisionName(req.name, "name"));
      return {};
    },
  });
}
