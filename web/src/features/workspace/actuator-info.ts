// The public facts about the workspace (contract §15.1): its title and which
// ways of signing in are open. Read once per page load.
import { createClient } from "@connectrpc/connect";
import { type ActuatorInfo, ActuatorService } from "@gen/svc/v1/actuator_service_pb.js";
import { authTransport } from "../../api/transport.ts";
import { useEffect } from "react";
import { type Loaded, useLoad } from "../../hooks/use-load.ts";

const CHANGED = "svc:actuator-info-changed";

let info: Promise<ActuatorInfo> | undefined;

function actuatorInfo(): Promise<ActuatorInfo> {
  info ??= createClient(ActuatorService, authTransport)
    .getActuatorInfo({})
    .catch((error: unknown) => {
      info = undefined; // asked again by the next page that needs it
      throw error;
    });
  return info;
}

export function useActuatorInfo(): Loaded<ActuatorInfo> {
  const loaded = useLoad(() => actuatorInfo(), []);
  const { reload } = loaded;
  useEffect(() => {
    window.addEventListener(CHANGED, reload);
    return () => window.removeEventListener(CHANGED, reload);
  }, [reload]);
  return loaded;
}

/** Reads the facts again where they are shown, after the console changed the workspace profile. */
export function refreshActuatorInfo(): void {
  info = undefined;
  window.dispatchEvent(new Event(CHANGED));
}

/** The workspace's title, or a neutral name until it is known. */
export function workspaceTitle(loaded: Loaded<ActuatorInfo>): string {
  return (loaded.status === "done" && loaded.value.workspaceTitle) || "Change-audit console";
}
