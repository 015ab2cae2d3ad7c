// The watermark (WORKSPACE_PROFILE.watermark, contract §7.2): the signed-in
// user's name and id, faint and tiled over every page of the console, so
// that a screenshot or photo names who took it. It never takes a click
// (pointer-events: none). It is made outside React, and put back when
// removed or altered (a casual edit in the browser's tools), as long as the
// setting is on.
import { SettingService } from "@gen/svc/v1/setting_service_pb.js";
import type { User } from "@gen/svc/v1/user_service_pb.js";
import { useEffect } from "react";
import { client } from "../../api/clients.ts";
import { useLoad } from "../../hooks/use-load.ts";
import { TILE, watermarkImage, watermarkLines } from "./watermark-image.ts";

async function watermarkOn(signal: AbortSignal): Promise<boolean> {
  const setting = await client(SettingService).getSetting({ name: "settings/WORKSPACE_PROFILE" }, { signal });
  return setting.value?.value.case === "workspaceProfile" && setting.value.value.value.watermark === true;
}

export function Watermark({ user }: { user: User }) {
  const on = useLoad(watermarkOn, []);
  const shown = on.status === "done" && on.value;
  const image = watermarkImage(watermarkLines(user));
  useEffect(() => (shown ? keepWatermark(image) : undefined), [shown, image]);
  return null;
}

const LAYER_STYLE: Record<string, string> = {
  position: "fixed",
  inset: "0",
  "z-index": "2147483647",
  "pointer-events": "none",
  display: "block",
  visibility: "visible",
  opacity: "1",
  "background-repeat": "repeat",
  "background-size": `${TILE.width}px ${TILE.height}px`,
  "print-color-adjust": "exact",
};

/** Puts the layer on the page and keeps it there until the returned function takes it away. */
function keepWatermark(image: string): () => void {
  let layer: HTMLDivElement | undefined;
  const place = () => {
    layer?.remove();
    layer = document.createElement("div");
    layer.className = "watermark";
    layer.setAttribute("aria-hidden", "true");
    // Important, so that a style rule added to the page does not hide it.
    for (const [property, value] of Object.entries({ ...LAYER_STYLE, "background-image": image })) {
      layer.style.setProperty(property, value, "important");
    }
    document.body.append(layer);
    observer.observe(layer, { attributes: true });
  };
  // The layer is never changed once placed: any change to it, or its removal, is undone.
  const observer = new MutationObserver((records) => {
    const altered = records.some((record) => record.type === "attributes" && record.target === layer);
    if (altered || !layer?.isConnected) place();
  });
  observer.observe(document.body, { childList: true });
  place();
  return () => {
    observer.disconnect();
    layer?.remove();
  };
}
