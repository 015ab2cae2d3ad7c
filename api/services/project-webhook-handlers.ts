// ProjectService's webhook calls (contract §19.3): the standard methods on
// projects/*/webhooks and the :test call, which waits on the receiver
// holding no store transaction (audit_at_end).
import type { ServiceImpl } from "@connectrpc/connect";
import type { ProjectService } from "../../shared/gen/svc/v1/project_service_pb.js";
import {
  createProjectWebhook,
  deleteProjectWebhook,
  getProjectWebhook,
  listProjectWebhooks,
  testProjectWebhook,
  updateProjectWebhook,
  webhookName,
} from "../../shared/notify/index.ts";
import type { Db, SecretBox } from "../../shared/platform/index.ts";
import { auditScope } from "../transport/audit-scope.ts";
import { callerOf } from "../transport/interceptors/authn.ts";
import { toWebhook, webhookDraft } from "./project-webhook-convert.ts";

export interface WebhookDeps {
  db: Db;
  /** Seals the webhooks' URLs and secrets, and opens them for :test. */
  secrets: SecretBox;
  /** --webhook-allow-private. */
  webhookAllowPrivate: boolean;
}

type Handlers = Pick<ServiceImpl<typeof ProjectService>, "listWebhooks" | "getWebhook" | "createWebhook" | "updateWebhook" | "deleteWebhook" | "testWebhook">;

export function projectWebhookHandlers(deps: WebhookDeps): Handlers {
  const writeDeps = { secrets: deps.secrets, allowPrivate: deps.webhookAllowPrivate };
  return {
    async listWebhooks(req) {
      return { webhooks: (await listProjectWebhooks(deps.db, req.parent)).map(toWebhook) };
    },
    async getWebhook(req) {
      return toWebhook(await getProjectWebhook(deps.db, req.name));
    },
    async createWebhook(req, context) {
      const audit = auditScope(context);
      const row = await createProjectWebhook(audit.tx, writeDeps, req.parent, callerOf(context).name, webhookDraft(req.webhook));
      audit.resource = webhookName({ projectId: row.projectId, id: row.id });
      return toWebhook(row);
    },
    async updateWebhook(req, context) {
      const row = await updateProjectWebhook(auditScope(context).tx, writeDeps, {
        name: req.webhook?.name ?? "",
        draft: webhookDraft(req.webhook),
        paths: req.updateMask?.paths ?? [],
        etag: req.webhook?.etag ?? "",
      });
      return toWebhook(row);
    },
    async deleteWebhook(req, context) {
      await deleteProjectWebhook(auditScope(context).tx, req.name);
      return {};
    },
    async testWebhook(req, context) {
      return testProjectWebhook(deps.db, deps.secrets, deps.webhookAllowPrivate, req.name, callerOf(context).name);
    },
  };
}
