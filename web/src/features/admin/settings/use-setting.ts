// One setting as a page edits it: its effective value (contract §7.1), and a
// save of some of its fields under the etag read, whose answer becomes the
// value shown.
import { create } from "@bufbuild/protobuf";
import { FieldMaskSchema } from "@bufbuild/protobuf/wkt";
import { type Setting, SettingService } from "@gen/svc/v1/setting_service_pb.js";
import { useCallback, useState } from "react";
import { client } from "../../../api/clients.ts";
import { type Loaded, useLoad } from "../../../hooks/use-load.ts";
import { payloadOf, type SettingKind, settingName, type SettingPayloads } from "./setting-kind.ts";

export interface EditedSetting<K extends SettingKind> {
  loaded: Loaded<Setting>;
  payload: SettingPayloads[K] | undefined;
  /** The version read (or saved last); "" until read. */
  etag: string;
  /** Writes `fields` of `payload` (paths below the payload, "enabled"…), conditional on the etag read. */
  save(payload: SettingPayloads[K], fields: readonly string[]): Promise<void>;
  reload(): void;
}

export function useSetting<K extends SettingKind>(kind: K): EditedSetting<K> {
  const [saved, setSaved] = useState<Setting>();
  const loaded = useLoad((signal) => client(SettingService).getSetting({ name: settingName(kind) }, { signal }), [kind]);
  const current = saved ?? (loaded.status === "done" ? loaded.value : undefined);
  const { reload: reloadStored } = loaded;
  const reload = useCallback(() => {
    setSaved(undefined);
    reloadStored();
  }, [reloadStored]);
  const save = async (payload: SettingPayloads[K], fields: readonly string[]) => {
    const reply = await client(SettingService).updateSetting({
      setting: { name: settingName(kind), value: { value: { case: kind, value: payload } as never } },
      updateMask: create(FieldMaskSchema, { paths: fields.map((field) => `${kind}.${field}`) }),
      etag: current?.etag ?? "",
    });
    setSaved(reply);
  };
  return { loaded, payload: payloadOf(current, kind), etag: current?.etag ?? "", save, reload };
}
