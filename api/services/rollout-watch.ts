// WatchRollout and WatchIssue (contract §12.3, §18.11), methods of
// RolloutService: the resource on subscribe, then again whenever a change
// notice names it and it reads differently; a response without the resource
// is a heartbeat (shared/watch/watch-resource.ts). Both end when the client
// goes away or the server shuts down; a missing resource is not_found before
// the first message.
import { equals, type DescMessage, type MessageShape } from "@bufbuild/protobuf";
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { IssueSchema } from "../../shared/gen/svc/v1/issue_service_pb.js";
import { RolloutSchema, type RolloutService } from "../../shared/gen/svc/v1/rollout_service_pb.js";
import { getIssue, getRolloutView, issueName, parseIssueName, parseRolloutName, rolloutName } from "../../shared/change/index.ts";
import { type ChangeFeed, type Db, watchResource } from "../../shared/platform/index.ts";
import type { SettingReader } from "../../shared/governance/index.ts";
import { toIssue } from "./issue-convert.ts";
import { toRollout } from "./rollout-convert.ts";

export interface WatchDeps {
  db: Db;
  settings: SettingReader;
  changes: ChangeFeed;
}

type WatchMethods = Pick<ServiceImpl<typeof RolloutService>, "watchRollout" | "watchIssue">;

export function rolloutWatchMethods(deps: WatchDeps): WatchMethods {
  return {
    async *watchRollout(req, context) {
      const ref = parseRolloutName(req.name, "name");
      const read = async () => toRollout(await getRolloutView(deps.db, deps.settings, ref));
      for await (const rollout of watch(deps.changes, RolloutSchema, rolloutName(ref), read, context)) yield { rollout };
    },
    async *watchIssue(req, context) {
      const ref = parseIssueName(req.name, "name");
      const read = async () => toIssue(await getIssue(deps.db, ref));
      for await (const issue of watch(deps.changes, IssueSchema, issueName(ref), read, context)) yield { issue };
    },
  };
}

function watch<Desc extends DescMessage>(changes: ChangeFeed, schema: Desc, name: string, read: () => Promise<MessageShape<Desc>>, context: HandlerContext) {
  return watchResource(changes, name, read, { signal: context.signal, same: (a, b) => equals(schema, a, b) });
}
