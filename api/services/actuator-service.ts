// ActuatorService: the running version and the public facts a sign-in page needs.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type ActuatorInfo, ActuatorInfoSchema, ActuatorService } from "../../shared/gen/svc/v1/actuator_service_pb.js";
import type { WorkspaceFacts } from "../../shared/identity/index.ts";
import { gitCommit, version } from "../../shared/platform/index.ts";
import { getSignInOptions, type SettingReader } from "../../shared/governance/index.ts";
import { freezeMessage } from "../transport/frozen-replies.ts";
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
  let last: { key: string; info: ActuatorInfo } | undefined;
  return registration(ActuatorService, {
    async getActuatorInfo() {
      const [profile, { needAdminSetup, lastActiveTime }] = await Promise.all([getSignInOptions(deps.settings), deps.workspaceFacts()]);
      const facts = {
        externalUrl: profile.externalUrl,
        require2fa: profile.require2fa,
        disallowSignup: profile.disallowSignup,
        disallowPasswordSignin: profile.disallowPasswordSignin,
        allowEmailCodeSignin: profile.allowEmailCodeSignin,
        workspaceTitle: profile.title,
        leader: deps.isLeader(),
        needAdminSetup,
      };
      // The same answer until something in it changes: frozen, so that its encodings are made once (frozen-replies.ts).
      const key = JSON.stringify([facts, lastActiveTime?.getTime()]);
      if (last?.key !== key) {
        const info = create(ActuatorInfoSchema, {
          ...facts,
          version,
          gitCommit,
          ha: deps.ha,
          debug: deps.debug,
          startTime,
          lastActiveTime: lastActiveTime && timestampFromDate(lastActiveTime),
        });
        last = { key, info: freezeMessage(info) };
      }
      return last.info;
    },
  });
}
