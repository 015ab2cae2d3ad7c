// InstanceService: instances and their sync (contract §9.3).
import { InstanceService } from "../../shared/gen/svc/v1/instance_service_pb.js";
import {
  createInstance,
  deleteInstance,
  getInstance,
  instanceName,
  listInstancePage,
  parseInstanceName,
  requestInstanceSync,
  undeleteInstance,
  updateInstance,
} from "../../shared/inventory/index.ts";
import type { Db, SecretBox } from "../../shared/platform/index.ts";
import { auditScope } from "../transport/audit-scope.ts";
import { callerOf } from "../transport/interceptors/authn.ts";
import { registration } from "../transport/services.ts";
import { instanceDraft, toInstance } from "./instance-convert.ts";

export interface InstanceDeps {
  db: Db;
  /** Seals and opens data-source passwords. */
  secrets: SecretBox;
}

export function instanceService(deps: InstanceDeps) {
  return registration(InstanceService, {
    async getInstance(req) {
      return toInstance(await getInstance(deps.db, parseInstanceName(req.name, "name")));
    },
    async listInstances(req) {
      const page = await listInstancePage(deps.db, req);
      return { instances: page.rows.map(toInstance), nextPageToken: page.nextPageToken };
    },
    async createInstance(req, context) {
      const audit = auditScope(context);
      if (req.instanceId) audit.resource = instanceName(req.instanceId);
      const draft = instanceDraft(req.instance);
      const row = await createInstance(audit.tx, deps.secrets, callerOf(context).name, req.instanceId, draft, req.validateOnly);
      return toInstance(row);
    },
    async updateInstance(req, context) {
      const row = await updateInstance(auditScope(context).tx, deps.secrets, {
        id: parseInstanceName(req.instance?.name ?? "", "instance.name"),
        draft: instanceDraft(req.instance),
        paths: req.updateMask?.paths ?? [],
        etag: req.instance?.etag ?? "",
        validateOnly: req.validateOnly,
      });
      return toInstance(row);
    },
    async deleteInstance(req, context) {
      await deleteInstance(auditScope(context).tx, parseInstanceName(req.name, "name"));
      return {};
    },
    async undeleteInstance(req, context) {
      return toInstance(await undeleteInstance(auditScope(context).tx, parseInstanceName(req.name, "name")));
    },
    async syncInstance(req, context) {
      return toInstance(await requestInstanceSync(auditScope(context).tx, parseInstanceName(req.name, "name")));
    },
  });
}
