// A card of a setting's fields saved by a holder of bb.settings.set: only the
// fields changed are sent, under the etag read (useSetting); a stale etag
// offers the current version. Several cards may edit one setting.
import { create, type DescMessage } from "@bufbuild/protobuf";
import { useState } from "react";
import { useAction } from "../../../hooks/use-action.ts";
import { usePermissions, WORKSPACE } from "../../iam/use-permissions.ts";
import { SettingCard } from "./setting-card.tsx";
import { changedValues, payloadInit, type SettingField } from "./setting-fields.ts";
import type { SettingKind, SettingPayloads } from "./setting-kind.ts";
import type { EditedSetting } from "./use-setting.ts";

interface SettingFormProps<K extends SettingKind> {
  setting: EditedSetting<K>;
  /** The payload's message type. */
  schema: DescMessage;
  heading: string;
  fields: readonly SettingField[];
  onSaved?(): void;
}

export function SettingForm<K extends SettingKind>({ setting, schema, heading, fields, onSaved }: SettingFormProps<K>) {
  const mayEdit = usePermissions(WORKSPACE, ["bb.settings.set"]).can("bb.settings.set");
  const write = useAction();
  const [news, setNews] = useState<string>();
  const { payload } = setting;
  if (!payload) return null;

  const submit = (form: FormData) => {
    const changes = changedValues(fields, payload, form);
    setNews(undefined);
    if (changes.size === 0) return setNews("Nothing changed.");
    void write.run(async () => {
      await setting.save(create(schema, payloadInit(changes)) as SettingPayloads[K], [...changes.keys()]);
      setNews("Saved.");
      onSaved?.();
    });
  };
  const reload = () => (write.dismiss(), setNews(undefined), setting.reload());
  return (
    <SettingCard
      heading={heading}
      fields={fields}
      payload={payload}
      version={setting.etag}
      mayEdit={mayEdit}
      write={write}
      news={news}
      onSubmit={submit}
      onReload={reload}
    />
  );
}
