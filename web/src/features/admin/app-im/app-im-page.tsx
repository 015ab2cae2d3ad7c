// Instant messaging (contract §7.4, §19.6): one card per vendor with its
// credentials (input-only, shown as set or not), chat and API root; a holder
// of bb.settings.set saves an entry and sends a test through it, seeing what
// the vendor answered.
import { create } from "@bufbuild/protobuf";
import { AppImSetting_Type, AppImSettingSchema } from "@gen/svc/v1/setting_integrations_pb.js";
import { SettingService } from "@gen/svc/v1/setting_service_pb.js";
import { useState } from "react";
import { client } from "../../../api/clients.ts";
import { FormError } from "../../../components/alert.tsx";
import { useAction } from "../../../hooks/use-action.ts";
import { usePermissions, WORKSPACE } from "../../iam/use-permissions.ts";
import { type ReceiverAnswer, ReceiverAnswers } from "../settings/receiver-answers.tsx";
import { SettingCard } from "../settings/setting-card.tsx";
import { SettingPage } from "../settings/setting-page.tsx";
import { type EditedSetting, useSetting } from "../settings/use-setting.ts";
import { imEntryInit, imFields, imTypeName, IM_TYPES, withEntry } from "./im-entries.ts";

export function AppImPage() {
  const setting = useSetting("appIm");
  return (
    <SettingPage title="Instant messaging" setting={setting}>
      {setting.payload && IM_TYPES.map((type) => <ImEntryCard key={type} type={type} setting={setting} />)}
    </SettingPage>
  );
}

function ImEntryCard({ type, setting }: { type: AppImSetting_Type; setting: EditedSetting<"appIm"> }) {
  const mayEdit = usePermissions(WORKSPACE, ["bb.settings.set"]).can("bb.settings.set");
  const write = useAction();
  const [news, setNews] = useState<string>();
  const stored = setting.payload?.settings ?? [];
  const entry = stored.find((im) => im.type === type);
  // The whole list is written: entries cannot be named in an update mask.
  const submit = (form: FormData) =>
    void write.run(async () => {
      setNews(undefined);
      await setting.save(create(AppImSettingSchema, { settings: withEntry(stored, imEntryInit(type, form)) }), ["settings"]);
      setNews("Saved.");
    });
  return (
    <SettingCard
      heading={imTypeName(type)}
      fields={imFields(type)}
      payload={entry ?? {}}
      version={setting.etag}
      mayEdit={mayEdit}
      write={write}
      news={news}
      onSubmit={submit}
      onReload={() => (write.dismiss(), setNews(undefined), setting.reload())}
    >
      {mayEdit && entry?.enabled && <ImTest type={type} />}
    </SettingCard>
  );
}

function ImTest({ type }: { type: AppImSetting_Type }) {
  const test = useAction();
  const [answers, setAnswers] = useState<ReceiverAnswer[]>();
  const name = imTypeName(type);
  const send = () =>
    test.run(async () => {
      setAnswers(undefined);
      const reply = await client(SettingService).testAppImSetting({ type });
      setAnswers(reply.results.map((result) => ({ receiver: result.target, status: result.status, body: result.body, error: result.error })));
    });
  return (
    <div className="setting-test">
      <button type="button" className="button" disabled={test.pending} aria-busy={test.pending} onClick={() => void send()}>
        {test.pending ? "Sending…" : `Send a test through ${name}`}
      </button>
      <FormError message={test.error} />
      {answers && <ReceiverAnswers answers={answers} caption={`What ${name} answered`} />}
    </div>
  );
}
