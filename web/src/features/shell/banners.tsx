// The workspace's banners above every page: the announcement of
// WORKSPACE_PROFILE (with its level) and the emergency pause with its reason.
// Read again whenever the window comes back into view, and when a page of
// the console changed one of them (refreshBanners).
import { SettingService, type Setting } from "@gen/svc/v1/setting_service_pb.js";
import { useEffect } from "react";
import { client } from "../../api/clients.ts";
import { useLoad } from "../../hooks/use-load.ts";
import { bannersOf } from "./banner-content.ts";

async function readSettings(signal: AbortSignal): Promise<Setting[]> {
  const settings = client(SettingService);
  const names = ["settings/WORKSPACE_PROFILE", "settings/EMERGENCY_PAUSE"];
  return Promise.all(names.map((name) => settings.getSetting({ name }, { signal })));
}

const REFRESH = "svc-banners-refresh";

/** Reads the banners' settings again, after the console changed one of them. */
export function refreshBanners(): void {
  window.dispatchEvent(new Event(REFRESH));
}

export function Banners() {
  const loaded = useLoad(readSettings, []);
  const { reload } = loaded;
  useEffect(() => {
    const onVisible = () => document.visibilityState === "visible" && reload();
    document.addEventListener("visibilitychange", onVisible);
    window.addEventListener(REFRESH, reload);
    return () => {
      document.removeEventListener("visibilitychange", onVisible);
      window.removeEventListener(REFRESH, reload);
    };
  }, [reload]);
  if (loaded.status !== "done") return null;
  const banners = bannersOf(loaded.value);
  if (banners.length === 0) return null;
  return (
    <div className="banners">
      {banners.map((banner) => (
        <div key={banner.key} className={`banner banner-${banner.tone}`} role={banner.tone === "critical" ? "alert" : "status"}>
          <strong>{banner.label}</strong> {banner.text}{" "}
          {banner.link && (
            <a href={banner.link} rel="noreferrer noopener" target="_blank">
              More
            </a>
          )}
        </div>
      ))}
    </div>
  );
}

