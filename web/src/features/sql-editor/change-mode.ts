// How the workspace makes database changes (WORKSPACE_PROFILE.database_change_mode,
// contract §14.1): only in EDITOR mode may the SQL Editor write (Execute);
// PIPELINE, the default, leaves changes to issues.
import { SettingService } from "@gen/svc/v1/setting_service_pb.js";
import { WorkspaceProfileSetting_DatabaseChangeMode as ChangeMode } from "@gen/svc/v1/setting_workspace_pb.js";
import { client } from "../../api/clients.ts";
import { useLoad } from "../../hooks/use-load.ts";

export type DatabaseChangeMode = "EDITOR" | "PIPELINE";

async function readChangeMode(signal: AbortSignal): Promise<DatabaseChangeMode> {
  const setting = await client(SettingService).getSetting({ name: "settings/WORKSPACE_PROFILE" }, { signal });
  const value = setting.value?.value;
  return value?.case === "workspaceProfile" && value.value.databaseChangeMode === ChangeMode.EDITOR ? "EDITOR" : "PIPELINE";
}

/** The workspace's mode; undefined until read (or when it could not be). */
export function useDatabaseChangeMode(enabled: boolean): DatabaseChangeMode | undefined {
  const loaded = useLoad(async (signal) => (enabled ? readChangeMode(signal) : undefined), [enabled]);
  return loaded.status === "done" ? loaded.value : undefined;
}
