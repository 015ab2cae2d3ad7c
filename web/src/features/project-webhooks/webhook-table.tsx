// The project's webhooks as a table; for those who may change the project,
// each row's Edit, Test and Delete (the latter asked once more).
import type { Webhook } from "@gen/svc/v1/project_webhook_pb.js";
import { useState } from "react";
import { ConfirmStep } from "../../components/confirm-step.tsx";
import { ListTable } from "../../components/list-table.tsx";
import { eventsText, SIGNING_TYPES, TYPE_LABELS } from "./webhook-draft.ts";

interface WebhookTableProps {
  webhooks: readonly Webhook[];
  mayUpdate: boolean;
  testPending: boolean;
  deletePending: boolean;
  onEdit(webhook: Webhook): void;
  onTest(webhook: Webhook): void;
  onDelete(webhook: Webhook): Promise<boolean>;
}

export function WebhookTable({ webhooks, mayUpdate, testPending, deletePending, onEdit, onTest, onDelete }: WebhookTableProps) {
  const [deleting, setDeleting] = useState<string>();
  if (webhooks.length === 0) return <p className="empty">No webhook yet.</p>;
  const columns = ["Title", "Type", "Points to", "Secret", "Events"];
  return (
    <ListTable columns={mayUpdate ? [...columns, "Actions"] : columns}>
      {webhooks.map((webhook) => (
        <tr key={webhook.name}>
          <td>{webhook.title}</td>
          <td>{TYPE_LABELS.get(webhook.type) ?? "–"}</td>
          <td className="wrap">
            <code>{webhook.urlShown}</code>
          </td>
          <td>{SIGNING_TYPES.has(webhook.type) ? (webhook.secretSet ? "set" : "not set") : "–"}</td>
          <td>{eventsText(webhook.events)}</td>
          {mayUpdate && (
            <td>
              {deleting === webhook.name ? (
                <ConfirmStep
                  confirm={`Delete ${webhook.title}`}
                  pending={deletePending}
                  onConfirm={() => void onDelete(webhook).then((deleted) => deleted && setDeleting(undefined))}
                  onClose={() => setDeleting(undefined)}
                >
                  Its events stop being sent.
                </ConfirmStep>
              ) : (
                <div className="actions">
                  <button type="button" className="button" onClick={() => onEdit(webhook)} aria-label={`Edit ${webhook.title}`}>
                    Edit
                  </button>
                  <button type="button" className="button" disabled={testPending} onClick={() => onTest(webhook)} aria-label={`Test ${webhook.title}`}>
                    Test
                  </button>
                  <button type="button" className="button danger" onClick={() => setDeleting(webhook.name)} aria-label={`Delete ${webhook.title}`}>
                    Delete
                  </button>
                </div>
              )}
            </td>
          )}
        </tr>
      ))}
    </ListTable>
  );
}
