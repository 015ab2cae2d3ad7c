// MONITORING (contract §7.8, §16): webhooks that receive the workspace's
// events signed with their secret (input-only: shown as set or not). A holder
// of bb.settings.set saves the list and sends a signed test to each saved
// webhook, seeing what each receiver answered.
import { MonitoringSettingSchema } from "@gen/svc/v1/setting_integrations_pb.js";
import { create } from "@bufbuild/protobuf";
import { SettingService } from "@gen/svc/v1/setting_service_pb.js";
import { useState } from "react";
import { client } from "../../../api/clients.ts";
import { FormError } from "../../../components/alert.tsx";
import { useAction } from "../../../hooks/use-action.ts";
import { usePermissions, WORKSPACE } from "../../iam/use-permissions.ts";
import { DraftSettingForm } from "../settings/draft-setting-form.tsx";
import { type ListEdits, listEdits } from "../settings/list-edits.ts";
import { type ReceiverAnswer, ReceiverAnswers } from "../settings/receiver-answers.tsx";
import { SettingPage } from "../settings/setting-page.tsx";
import { useSetting } from "../settings/use-setting.ts";
import { WebhookFields } from "./webhook-fields.tsx";
import { rowsOf, type WebhookRow, webhooksOf } from "./webhook-rows.ts";

export function MonitoringPage() {
  const setting = useSetting("monitoring");
  const mayTest = usePermissions(WORKSPACE, ["bb.settings.set"]).can("bb.settings.set");
  return (
    <SettingPage title="Monitoring webhooks" setting={setting}>
      <p className="hint">Each webhook receives the workspace's events as JSON, signed in X-Svc-Signature (HMAC-SHA256 with its secret).</p>
      <DraftSettingForm
        setting={setting}
        label="Webhooks"
        draftOf={rowsOf}
        // Written whole: a secret typed is a change the read cannot show.
        changesOf={(rows) => ({ payload: create(MonitoringSettingSchema, { webhooks: webhooksOf(rows) }), fields: ["webhooks"] })}
      >
        {(rows, setRows) => <WebhookList rows={rows} edits={listEdits(rows, setRows)} />}
      </DraftSettingForm>
      {setting.payload && mayTest && <MonitoringTest />}
    </SettingPage>
  );
}

function WebhookList({ rows, edits }: { rows: readonly WebhookRow[]; edits: ListEdits<WebhookRow> }) {
  return (
    <>
      {rows.length === 0 && <p className="empty">No webhook yet.</p>}
      {rows.map((row, index) => (
        <WebhookFields key={index} number={index + 1} row={row} onChange={(change) => edits.change(index, change)} onRemove={() => edits.remove(index)} />
      ))}
      <button type="button" className="button" onClick={() => edits.add({ url: "", secret: "", secretSet: false, events: "" })}>
        Add a webhook
      </button>
    </>
  );
}

function MonitoringTest() {
  const test = useAction();
  const [answers, setAnswers] = useState<ReceiverAnswer[]>();
  const send = () =>
    test.run(async () => {
      setAnswers(undefined);
      const reply = await client(SettingService).testMonitoringSetting({});
      setAnswers(reply.results.map((result) => ({ receiver: result.url, status: result.status, body: result.body, error: result.error })));
    });
  return (
    <section className="admin-card" aria-labelledby="monitoring-test-heading">
      <h2 id="monitoring-test-heading">Test</h2>
      <p className="hint">Sends a signed test event to each saved webhook.</p>
      <button type="button" className="button" disabled={test.pending} aria-busy={test.pending} onClick={() => void send()}>
        {test.pending ? "Sending…" : "Send a test event"}
      </button>
      <FormError message={test.error} />
      {answers && <ReceiverAnswers answers={answers} caption="What the webhooks answered" />}
    </section>
  );
}
