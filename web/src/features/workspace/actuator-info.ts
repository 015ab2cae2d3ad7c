// The public facts about the workspace (contract §15.1): its title and which
// ways of signing in are open. Read once per page load.
import { createClient } from "@connectrpc/connect";
import { type ActuatorInfo, ActuatorService } from "@gen/svc/v1/actuator_service_pb.js";
import { authTransport } from "../../api/transport.ts";
import { type Loaded, useLoad } from "../../hooks/use-load.ts";

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
  return useLoad(() => actuatorInfo(), []);
}

/** The workspace's title, or a neutral name until it is known. */
export function workspaceTitle(loaded: Loaded<ActuatorInfo>): string {
  return (loaded.status === "done" && loaded.value.workspaceTitle) || "Change-audit console";
}
