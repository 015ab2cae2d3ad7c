import { create } from "@bufbuild/protobuf";
import { type Setting, SettingSchema } from "@gen/svc/v1/setting_service_pb.js";
import { WorkspaceProfileSetting_Announcement_Level as Level } from "@gen/svc/v1/setting_workspace_pb.js";
import { describe, expect, it } from "vitest";
import { bannersOf } from "./banner-content.ts";

const profile = (announcement: { level: Level; text?: string; link?: string }): Setting =>
  create(SettingSchema, { name: "settings/WORKSPACE_PROFILE", value: { value: { case: "workspaceProfile", value: { announcement } } } });
const pause = (enabled: boolean, reason?: string): Setting =>
  create(SettingSchema, { name: "settings/EMERGENCY_PAUSE", value: { value: { case: "emergencyPause", value: { enabled, ...(reason ? { reason } : {}) } } } });

describe("banners", () => {
  it("puts the pause, with its reason, before the announcement at its level", () => {
    const banners = bannersOf([profile({ level: Level.CRITICAL, text: " Upgrade at 22:00 ", link: "https://status.example.com" }), pause(true, "incident 7")]);
    expect(banners).toEqual([
      { key: "pause", tone: "critical", label: "Emergency pause:", text: "rollouts are stopped across the workspace. Reason: incident 7" },
      { key: "announcement", tone: "critical", label: "Announcement:", text: "Upgrade at 22:00", link: "https://status.example.com" },
    ]);
  });

  it("shows nothing for a lifted pause or an empty announcement, and no link that is not http(s)", () => {
    expect(bannersOf([pause(false, "over"), profile({ level: Level.INFO, text: "  " })])).toEqual([]);
    const [banner] = bannersOf([profile({ level: Level.LEVEL_UNSPECIFIED, text: "Hello", link: "javascript:alert(1)" })]);
    expect(banner).toEqual({ key: "announcement", tone: "info", label: "Announcement:", text: "Hello" });
  });
});
