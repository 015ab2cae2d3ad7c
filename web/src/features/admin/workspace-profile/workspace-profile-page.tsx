// The workspace profile (contract §7.2): its title and address, the
// watermark, how changes are made, the SQL Editor's limits, how long logs are
// kept; the announcement the banner shows; and the password policy (§5.3). One setting read once for both cards,
// so that saving one does not leave the other with a stale etag.
import {
  WorkspaceProfileSetting_Announcement_Level as AnnouncementLevel,
  WorkspaceProfileSetting_DatabaseChangeMode,
  WorkspaceProfileSettingSchema,
} from "@gen/svc/v1/setting_workspace_pb.js";
import { refreshBanners } from "../../shell/banners.tsx";
import { refreshActuatorInfo } from "../../workspace/actuator-info.ts";
import { SettingForm } from "../settings/setting-form.tsx";
import type { SettingField } from "../settings/setting-fields.ts";
import { SettingPage } from "../settings/setting-page.tsx";
import { useSetting } from "../settings/use-setting.ts";

const DURATION = "A duration such as 30s, 15m, 1h or 7d; 0s keeps them for ever.";

const PROFILE_FIELDS: readonly SettingField[] = [
  { path: "title", label: "Workspace title", kind: "text", hint: "Shown in every page's header." },
  { path: "externalUrl", label: "External URL", kind: "url", hint: "The address people open; a server started with --external-url keeps the flag's and refuses a change here." },
  { path: "watermark", label: "Watermark every page with the viewer's name", kind: "checkbox" },
  {
    path: "databaseChangeMode",
    label: "How changes are made",
    kind: "select",
    choices: [
      { value: WorkspaceProfileSetting_DatabaseChangeMode.PIPELINE, label: "Through issues and rollouts (pipeline)" },
      { value: WorkspaceProfileSetting_DatabaseChangeMode.EDITOR, label: "In the SQL Editor (editor)" },
    ],
  },
  { path: "sqlResultSize", label: "Largest SQL result (bytes)", kind: "int64" },
  { path: "queryTimeout", label: "Query timeout", kind: "text", hint: "A duration such as 30s or 5m; 0s for none." },
  { path: "queryHistoryRetention", label: "Query history kept for", kind: "text", hint: DURATION },
  { path: "notificationDeliveryRetention", label: "Notification deliveries kept for", kind: "text", hint: DURATION },
];

const PASSWORD_FIELDS: readonly SettingField[] = [
  { path: "passwordRestriction.minLength", label: "Shortest password (characters)", kind: "int" },
  { path: "passwordRestriction.requireNumber", label: "Require a number", kind: "checkbox" },
  { path: "passwordRestriction.requireLetter", label: "Require a letter", kind: "checkbox" },
  { path: "passwordRestriction.requireUppercaseLetter", label: "Require an upper-case letter", kind: "checkbox" },
  { path: "passwordRestriction.requireSpecialCharacter", label: "Require a special character", kind: "checkbox" },
  { path: "passwordRestriction.requireResetPasswordForFirstLogin", label: "New users change their password at first sign-in", kind: "checkbox" },
  { path: "passwordRestriction.passwordRotation", label: "Password expires after", kind: "text", hint: "A duration such as 90d; 0s never." },
];

const ANNOUNCEMENT_FIELDS: readonly SettingField[] = [
  { path: "announcement.text", label: "Announcement text", kind: "text", hint: "Shown above every page to everyone signed in; empty for none." },
  {
    path: "announcement.level",
    label: "Announcement level",
    kind: "select",
    choices: [
      { value: AnnouncementLevel.INFO, label: "Information" },
      { value: AnnouncementLevel.WARNING, label: "Warning" },
      { value: AnnouncementLevel.CRITICAL, label: "Critical" },
    ],
  },
  { path: "announcement.link", label: "Announcement link", kind: "url", hint: "Where its \"More\" leads; empty for none." },
];

/** The header's title and the banners read the profile too. */
function showProfileChange() {
  refreshActuatorInfo();
  refreshBanners();
}

export function WorkspaceProfilePage() {
  const setting = useSetting("workspaceProfile");
  return (
    <SettingPage title="Workspace profile" setting={setting}>
      <SettingForm setting={setting} schema={WorkspaceProfileSettingSchema} heading="Profile" fields={PROFILE_FIELDS} onSaved={showProfileChange} />
      <SettingForm setting={setting} schema={WorkspaceProfileSettingSchema} heading="Announcement" fields={ANNOUNCEMENT_FIELDS} onSaved={showProfileChange} />
      <SettingForm setting={setting} schema={WorkspaceProfileSettingSchema} heading="Password policy" fields={PASSWORD_FIELDS} />
    </SettingPage>
  );
}
