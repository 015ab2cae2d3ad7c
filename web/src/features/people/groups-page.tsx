// The workspace's groups (contract §5.2) with their members, page by page.
import { Group_Source, GroupMember_Role, GroupService } from "@gen/svc/v1/group_service_pb.js";
import { client } from "../../api/clients.ts";
import { ListFooter } from "../../components/list-footer.tsx";
import { ListTable } from "../../components/list-table.tsx";
import { useDocumentTitle } from "../../hooks/use-document-title.ts";
import { usePages } from "../../hooks/use-pages.ts";
import { memberLabel } from "../admin/members/policy-edit.ts";

export function GroupsPage() {
  useDocumentTitle("Groups");
  const pages = usePages(async (pageToken, signal) => {
    const reply = await client(GroupService).listGroups({ pageToken, pageSize: 100 }, { signal });
    return { items: reply.groups, nextPageToken: reply.nextPageToken };
  }, []);
  return (
    <section aria-labelledby="groups-heading" className="page">
      <h1 id="groups-heading">Groups</h1>
      <p className="hint">A role granted to a group holds for each of its members.</p>
      {pages.items.length > 0 && (
        <ListTable columns={["Group", "Members", "Two-step required", "Source"]}>
          {pages.items.map((group) => (
            <tr key={group.name}>
              <td>
                {group.title || group.name}
                <br />
                <code className="hint">{group.name.replace(/^groups\//, "")}</code>
              </td>
              <td>
                <ul aria-label={`Members of ${group.title || group.name}`} className="plain-list">
                  {group.members.map((member) => (
                    <li key={member.member}>
                      {memberLabel(member.member)} {member.role === GroupMember_Role.OWNER && <span className="badge">owner</span>}
                    </li>
                  ))}
                </ul>
              </td>
              <td>{group.require2fa ? "yes" : "no"}</td>
              <td>{Group_Source[group.source].toLowerCase()}</td>
            </tr>
          ))}
        </ListTable>
      )}
      <ListFooter pages={pages} empty="No group yet." />
    </section>
  );
}
