// The workspace's users and service accounts (contract §5.1), page by page;
// holders of bb.users.create add one with its initial credentials.
import { State, UserService, UserSource, UserType } from "@gen/svc/v1/user_service_pb.js";
import { useState } from "react";
import { client } from "../../api/clients.ts";
import { ListFooter } from "../../components/list-footer.tsx";
import { ListTable } from "../../components/list-table.tsx";
import { TimeText } from "../../components/time-text.tsx";
import { useDocumentTitle } from "../../hooks/use-document-title.ts";
import { usePages } from "../../hooks/use-pages.ts";
import { usePermissions, WORKSPACE } from "../iam/use-permissions.ts";
import { CreateUserForm } from "./create-user-form.tsx";

export function UsersPage() {
  useDocumentTitle("Users");
  const permissions = usePermissions(WORKSPACE, ["bb.users.create"]);
  // Bumped after a creation, so that the list shows the new user.
  const [created, setCreated] = useState(0);
  const pages = usePages(
    async (pageToken, signal) => {
      const reply = await client(UserService).listUsers({ pageToken, pageSize: 100 }, { signal });
      return { items: reply.users, nextPageToken: reply.nextPageToken };
    },
    [created],
  );
  return (
    <section aria-labelledby="users-heading" className="page">
      <h1 id="users-heading">Users</h1>
      {pages.items.length > 0 && (
        <ListTable columns={["Login ID", "Name", "E-mail", "Kind", "Groups", "Last sign-in", "State"]}>
          {pages.items.map((user) => (
            <tr key={user.name}>
              <td>
                <code>{user.loginId}</code>
              </td>
              <td>{user.title || "–"}</td>
              <td>{user.email || "–"}</td>
              <td>
                {user.type === UserType.SERVICE_ACCOUNT ? "service account" : "user"}, {UserSource[user.source].toLowerCase()}
                {user.mfaEnabled && ", two-step"}
              </td>
              <td>{user.groups.map((group) => group.replace(/^groups\//, "")).join(", ") || "–"}</td>
              <td>
                <TimeText time={user.lastLoginTime} />
              </td>
              <td>
                {State[user.state].toLowerCase()} {user.locked && <span className="badge outcome-refused">locked</span>}
              </td>
            </tr>
          ))}
        </ListTable>
      )}
      <ListFooter pages={pages} empty="No user yet." />
      {permissions.can("bb.users.create") && <CreateUserForm onCreated={() => setCreated((n) => n + 1)} />}
    </section>
  );
}
