// A settings page: its heading and title, and the setting's reading or its
// refusal above the cards.
import type { ReactNode } from "react";
import { FormError } from "../../../components/alert.tsx";
import { Loading } from "../../../components/loading.tsx";
import { useDocumentTitle } from "../../../hooks/use-document-title.ts";
import type { SettingKind } from "./setting-kind.ts";
import type { EditedSetting } from "./use-setting.ts";

export function SettingPage<K extends SettingKind>({ title, setting, children }: { title: string; setting: EditedSetting<K>; children: ReactNode }) {
  useDocumentTitle(title);
  const headingId = `${title.replace(/\W+/g, "-").toLowerCase()}-heading`;
  return (
    <section aria-labelledby={headingId} className="page">
      <h1 id={headingId}>{title}</h1>
      {setting.loaded.status === "failed" && <FormError message={setting.loaded.message} />}
      {setting.loaded.status === "loading" && <Loading />}
      {children}
    </section>
  );
}
