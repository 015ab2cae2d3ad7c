// ActuatorService: the running version and the public facts a sign-in page needs.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { ActuatorInfoSchema, ActuatorService } from "../../shared/gen/svc/v1/actuator_service_pb.js";
import type { WorkspaceFacts } from "../../shared/identity/index.ts";
import { gitCommit, version } from "../../shared/platform/index.ts";
import { getSignInOptions, type SettingReader } from "../../shared/governance/index.ts";
import { registration } from "../transport/services.ts";

export interface ActuatorDeps {
  /** The anonymous sign-in facts, cached (the access cache). */
  workspaceFacts: () => Promise<WorkspaceFacts>;
  /** Carries --external-url (withExternalUrlFlag). */
  settings: SettingReader;
  ha: boolean;
  debug: boolean;
  startTime: Date;
  isLeader: () => boolean;
}

export function actuatorService(deps: ActuatorDeps) {
  const startTime = timestampFromDate(deps.startTime); // fixed for the process: converted once
  return registration(ActuatorService, {
    async getActuatorInfo() {
      const [profile, { needAdminSetup, lastActiveTime }] = await Promise.all([getSignInOptions(deps.settings), deps.workspaceFacts()]);
      return create(ActuatorInfoSchema, {
        version,
        gitCommit,
        externalUrl: profile.externalUrl,
        ha: deps.ha,
        debug: deps.debug,
        require2fa: profile.require2fa,
        disallowSignup: profile.disallowSignup,
        disallowPasswordSignin: profile.disallowPasswordSignin,
        allowEmailCodeSignin: profile.allowEmailCodeSignin,
        workspaceTitle: profile.title,
        startTime,
        leader: deps.isLeader(),
        needAdminSetup,
        lastActiveTime: lastActiveTime && timestampFromDate(lastActiveTime),
      });
    },
  });
}
