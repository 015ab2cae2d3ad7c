// GroupService: groups of users (contract §5.2).
import { GroupService } from "../../shared/gen/svc/v1/group_service_pb.js";
import { createGroup, deleteGroup, getGroup, groupName, listGroupPage, updateGroup } from "../../shared/identity/index.ts";
import { type Db, pageSize, parseResourceName } from "../../shared/platform/index.ts";
import { auditScope } from "../transport/audit-scope.ts";
import { callerOf } from "../transport/interceptors/authn.ts";
import { registration } from "../transport/services.ts";
import { groupDraft, toGroup } from "./group-convert.ts";

export interface GroupDeps {
  db: Db;
}

export function groupService(deps: GroupDeps) {
  return registration(GroupService, {
    async listGroups(req) {
      const page = await listGroupPage(deps.db, pageSize(req.pageSize), req.pageToken);
      return { groups: page.groups.map(toGroup), nextPageToken: page.nextPageToken };
    },
    async getGroup(req) {
      return toGroup(await getGroup(deps.db, parseResourceName(req.name, "groups", "name")));
    },
    async createGroup(req, context) {
      const audit = auditScope(context);
      if (req.groupId) audit.resource = groupName(req.groupId);
      return toGroup(await createGroup(audit.tx, req.groupId, groupDraft(req.group)));
    },
    async updateGroup(req, context) {
      const audit = auditScope(context);
      const id = parseResourceName(req.group?.name ?? "", "groups", "group.name");
      const group = await updateGroup(audit.tx, callerOf(context), {
        ...groupDraft(req.group),
        id,
        paths: req.updateMask?.paths ?? [],
        etag: req.group?.etag ?? "",
      });
      return toGroup(group);
    },
    async deleteGroup(req, context) {
      await deleteGroup(auditScope(context).tx, parseResourceName(req.name, "groups", "name"));
      return {};
    },
  });
}
