// A setting edited as a draft the page holds (lists of entries, written whole
// under the etag read): the draft's inputs, the write's refusal or news, and
// Save with only the top-level fields the draft changes. The news and the
// refusal live outside the draft, which a save or a reload fills afresh.
import { type ReactNode, useState } from "react";
import { Alert } from "../../../components/alert.tsx";
import { SubmitButton } from "../../../components/submit-button.tsx";
import { useAction } from "../../../hooks/use-action.ts";
import { usePermissions, WORKSPACE } from "../../iam/use-permissions.ts";
import { WriteRefusal } from "../components/write-refusal.tsx";
import type { SettingKind, SettingPayloads } from "./setting-kind.ts";
import type { EditedSetting } from "./use-setting.ts";

export interface DraftChanges<P> {
  payload: P;
  /** Paths below the payload; none when nothing changed. */
  fields: readonly string[];
}

interface DraftSettingFormProps<K extends SettingKind, Draft> {
  setting: EditedSetting<K>;
  /** Names the form and its Save button ("Save <label>"). */
  label: string;
  draftOf(payload: SettingPayloads[K]): Draft;
  changesOf(draft: Draft, read: SettingPayloads[K]): DraftChanges<SettingPayloads[K]>;
  /** The draft's inputs; `mayEdit` false shows them disabled. */
  children(draft: Draft, setDraft: (draft: Draft) => void): ReactNode;
  onSaved?(): void;
}

export function DraftSettingForm<K extends SettingKind, Draft>(props: DraftSettingFormProps<K, Draft>) {
  const { setting, label, changesOf, onSaved } = props;
  const mayEdit = usePermissions(WORKSPACE, ["bb.settings.set"]).can("bb.settings.set");
  const write = useAction();
  const [news, setNews] = useState<string>();
  const read = setting.payload;
  if (!read) return null;
  const save = (draft: Draft) => {
    const { payload, fields } = changesOf(draft, read);
    setNews(undefined);
    if (fields.length === 0) return setNews("Nothing changed.");
    void write.run(async () => {
      await setting.save(payload, fields);
      setNews("Saved.");
      onSaved?.();
    });
  };
  const reload = () => (write.dismiss(), setNews(undefined), setting.reload());
  return (
    <DraftForm key={setting.etag} initial={props.draftOf(read)} label={label} mayEdit={mayEdit} onSave={save} inputs={props.children}>
      <WriteRefusal action={write} onReload={reload} />
      {news && <Alert tone="success">{news}</Alert>}
      {mayEdit && <SubmitButton pending={write.pending}>Save {label.toLowerCase()}</SubmitButton>}
    </DraftForm>
  );
}

interface DraftFormProps<Draft> {
  initial: Draft;
  label: string;
  mayEdit: boolean;
  onSave(draft: Draft): void;
  inputs(draft: Draft, setDraft: (draft: Draft) => void): ReactNode;
  children: ReactNode;
}

function DraftForm<Draft>({ initial, label, mayEdit, onSave, inputs, children }: DraftFormProps<Draft>) {
  const [draft, setDraft] = useState(initial);
  return (
    <form className="admin-card" aria-label={label} onSubmit={(event) => (event.preventDefault(), onSave(draft))}>
      <fieldset disabled={!mayEdit} className="setting-fields">
        {inputs(draft, setDraft)}
      </fieldset>
      {children}
    </form>
  );
}
