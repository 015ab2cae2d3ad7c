// MONITORING (contract §7.8, §16): webhooks that receive the workspace's
// events signed with their secret (input-only: shown as set or not). A holder
// of bb.settings.set saves the list and sends a signed test to each saved
// webhook, seeing what each receiver answered.
import { MonitoringSettingSchema } from "@gen/svc/v1/setting_integrations_pb.js";
import { create } from "@bufbuild/protobuf";
import { SettingService } from "@gen/svc/v1/setting_service_pb.js";
import { useState } from "react";
import { client } from "../../../api/clients.ts";
import { Alert, FormError } from "../../../components/alert.tsx";
import { SubmitButton } from "../../../components/submit-button.tsx";
import { type Action, useAction } from "../../../hooks/use-action.ts";
import { usePermissions, WORKSPACE } from "../../iam/use-permissions.ts";
import { WriteRefusal } from "../components/write-refusal.tsx";
import { type ReceiverAnswer, ReceiverAnswers } from "../settings/receiver-answers.tsx";
import { SettingPage } from "../settings/setting-page.tsx";
import { useSetting } from "../settings/use-setting.ts";
import { WebhookFields } from "./webhook-fields.tsx";
import { rowsOf, type WebhookRow, webhooksOf } from "./webhook-rows.ts";

export function MonitoringPage() {
  const setting = useSetting("monitoring");
  const mayEdit = usePermissions(WORKSPACE, ["bb.settings.set"]).can("bb.settings.set");
  // Outside the list, which a save fills afresh.
  const write = useAction();
  const [saved, setSaved] = useState(false);
  const save = (rows: WebhookRow[]) =>
    void write.run(async () => {
      setSaved(false);
      await setting.save(create(MonitoringSettingSchema, { webhooks: webhooksOf(rows) }), ["webhooks"]);
      setSaved(true);
    });
  return (
    <SettingPage title="Monitoring webhooks" setting={setting}>
      <p className="hint">Each webhook receives the workspace's events as JSON, signed in X-Svc-Signature (HMAC-SHA256 with its secret).</p>
      {setting.payload && (
        <WebhookList
          key={setting.etag}
          initial={rowsOf(setting.payload)}
          mayEdit={mayEdit}
          write={write}
          saved={saved}
          onSave={save}
          onReload={() => (write.dismiss(), setSaved(false), setting.reload())}
        />
      )}
      {setting.payload && mayEdit && <MonitoringTest />}
    </SettingPage>
  );
}

interface WebhookListProps {
  initial: WebhookRow[];
  mayEdit: boolean;
  write: Action;
  saved: boolean;
  onSave(rows: WebhookRow[]): void;
  onReload(): void;
}

function WebhookList({ initial, mayEdit, write, saved, onSave, onReload }: WebhookListProps) {
  const [rows, setRows] = useState(initial);
  const edit = (index: number, change: Partial<WebhookRow>) => setRows(rows.map((row, i) => (i === index ? { ...row, ...change } : row)));
  return (
    <form className="admin-card" aria-label="Webhooks" onSubmit={(event) => (event.preventDefault(), onSave(rows))}>
      <fieldset disabled={!mayEdit} className="setting-fields">
        {rows.length === 0 && <p className="empty">No webhook yet.</p>}
        {rows.map((row, index) => (
          <WebhookFields key={index} number={index + 1} row={row} onChange={(change) => edit(index, change)} onRemove={() => setRows(rows.filter((_, i) => i !== index))} />
        ))}
        <button type="button" className="button" onClick={() => setRows([...rows, { url: "", secret: "", secretSet: false, events: "" }])}>
          Add a webhook
        </button>
      </fieldset>
      <WriteRefusal action={write} onReload={onReload} />
      {saved && <Alert tone="success">Saved.</Alert>}
      {mayEdit && <SubmitButton pending={write.pending}>Save webhooks</SubmitButton>}
    </form>
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
