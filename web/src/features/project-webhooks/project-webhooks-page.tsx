// A project's webhooks (contract §19.3): the project's events sent to
// incoming-webhook URLs in each vendor's format. Listed with where each
// points (url_shown: the URL itself is a credential, never read back), its
// type, secret state and events; created, edited under its etag, deleted
// and tested by those who may change the project (bb.projects.update).
import { ProjectService } from "@gen/svc/v1/project_service_pb.js";
import type { Webhook } from "@gen/svc/v1/project_webhook_pb.js";
import { useState } from "react";
import { useParams } from "wouter";
import { client } from "../../api/clients.ts";
import { Alert, FormError } from "../../components/alert.tsx";
import { Loading } from "../../components/loading.tsx";
import { useAction } from "../../hooks/use-action.ts";
import { useDocumentTitle } from "../../hooks/use-document-title.ts";
import { useLoad } from "../../hooks/use-load.ts";
import { WriteRefusal } from "../admin/components/write-refusal.tsx";
import { usePermissions } from "../iam/use-permissions.ts";
import { ProjectLinks } from "../projects/project-links.tsx";
import { newWebhookOf, updateOf, type WebhookDraft } from "./webhook-draft.ts";
import { WebhookForm } from "./webhook-form.tsx";
import { WebhookTable } from "./webhook-table.tsx";
import { useWebhookTest } from "./webhook-test.tsx";

const UPDATE = ["bb.projects.update"] as const;

/** What the page shows under the list: nothing, the form of a new webhook, or of a stored one. */
type Editing = { mode: "none" } | { mode: "new" } | { mode: "edit"; webhook: Webhook };

export function ProjectWebhooksPage() {
  const project = useParams<{ project: string }>().project ?? "";
  useDocumentTitle(`Webhooks of ${project}`);
  const parent = `projects/${project}`;
  const permissions = usePermissions(parent, UPDATE);
  const mayUpdate = permissions.can("bb.projects.update");
  const list = useLoad((signal) => client(ProjectService).listWebhooks({ parent }, { signal }), [parent]);
  const [editing, setEditing] = useState<Editing>({ mode: "none" });
  const [news, setNews] = useState<string>();
  const write = useAction();
  const test = useWebhookTest();

  const done = (message: string) => {
    setNews(message);
    test.clear();
    setEditing({ mode: "none" });
    list.reload();
  };
  const save = (draft: WebhookDraft) =>
    void write.run(async () => {
      setNews(undefined);
      const projects = client(ProjectService);
      if (editing.mode === "new") {
        const made = await projects.createWebhook({ parent, webhook: newWebhookOf(draft) });
        return done(`Created ${made.title}.`);
      }
      if (editing.mode !== "edit") return;
      const { webhook, paths } = updateOf(editing.webhook, draft);
      if (paths.length === 0) return done("Nothing changed.");
      const saved = await projects.updateWebhook({ webhook, updateMask: { paths } });
      done(`Saved ${saved.title}.`);
    });
  const remove = (webhook: Webhook) =>
    write.run(async () => {
      setNews(undefined);
      await client(ProjectService).deleteWebhook({ name: webhook.name });
      done(`Deleted ${webhook.title}.`);
    });
  const open = (next: Editing) => {
    write.dismiss();
    setNews(undefined);
    setEditing(next);
  };

  return (
    <section aria-labelledby="webhooks-heading" className="page">
      <h1 id="webhooks-heading">Webhooks of {project}</h1>
      <ProjectLinks project={project} />
      <p className="hint">Each webhook receives the project's issue, rollout and task-run events in its type's message format.</p>
      {permissions.ready && !mayUpdate && <Alert tone="info">Only those who may change the project (bb.projects.update) manage its webhooks.</Alert>}
      {list.status === "loading" && <Loading />}
      {list.status === "failed" && <FormError message={list.message} />}
      {list.status === "done" && (
        <WebhookTable
          webhooks={list.value.webhooks}
          mayUpdate={mayUpdate}
          testPending={test.pending}
          deletePending={write.pending}
          onEdit={(webhook) => open({ mode: "edit", webhook })}
          onTest={test.send}
          onDelete={remove}
        />
      )}
      {test.view}
      {news && <Alert tone="success">{news}</Alert>}
      {editing.mode === "none" && <WriteRefusal action={write} onReload={() => (write.dismiss(), list.reload())} />}
      {mayUpdate && editing.mode === "none" && list.status === "done" && (
        <button type="button" className="button primary" onClick={() => open({ mode: "new" })}>
          Add a webhook
        </button>
      )}
      {editing.mode !== "none" && (
        <>
          <WebhookForm
            key={editing.mode === "edit" ? editing.webhook.name : "new"}
            stored={editing.mode === "edit" ? editing.webhook : undefined}
            pending={write.pending}
            onSave={save}
            onClose={() => open({ mode: "none" })}
          />
          <WriteRefusal action={write} onReload={() => (open({ mode: "none" }), list.reload())} />
        </>
      )}
    </section>
  );
}
