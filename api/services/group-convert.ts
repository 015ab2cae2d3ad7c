// Groups ⇄ svc.v1 Group.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { Group_Source, GroupMember_Role, GroupSchema, type Group } from "../../shared/gen/svc/v1/group_service_pb.js";
import { type GroupDraft, groupName, type GroupView, userMember } from "../../shared/identity/index.ts";

export function toGroup(group: GroupView): Group {
  return create(GroupSchema, {
    name: groupName(group.id),
    title: group.title,
    description: group.description,
    email: group.email,
    members: group.members.map((m) => ({ member: userMember(m.loginId), role: GroupMember_Role[m.role] })),
    require2fa: group.require2fa,
    source: Group_Source[group.source],
    etag: group.etag,
    createTime: timestampFromDate(group.createTime),
    updateTime: timestampFromDate(group.updateTime),
  });
}

export function groupDraft(group: Group | undefined): GroupDraft {
  return {
    title: group?.title ?? "",
    description: group?.description ?? "",
    email: group?.email ?? "",
    require2fa: group?.require2fa ?? false,
    members: (group?.members ?? []).map((m) => ({
      member: m.member,
      role: m.role === GroupMember_Role.OWNER ? "OWNER" : m.role === GroupMember_Role.MEMBER ? "MEMBER" : undefined,
    })),
  };
}
