// The workspace's members and roles: the workspace IAM policy (contract §6.4).
import { WorkspaceService } from "@gen/svc/v1/workspace_service_pb.js";
import { client } from "../../../api/clients.ts";
import { useDocumentTitle } from "../../../hooks/use-document-title.ts";
import { WORKSPACE } from "../../iam/use-permissions.ts";
import { type PolicySource, PolicyEditor } from "./policy-editor.tsx";

const workspacePolicy: PolicySource = {
  resource: WORKSPACE,
  setPermission: "bb.workspaces.setIamPolicy",
  read: (signal) => client(WorkspaceService).getWorkspaceIamPolicy({}, { signal }),
  write: (bindings, etag) => client(WorkspaceService).setWorkspaceIamPolicy({ policy: { bindings }, etag }),
};

export function MembersPage() {
  useDocumentTitle("Members and roles");
  return (
    <section aria-labelledby="members-heading" className="page">
      <h1 id="members-heading">Members and roles</h1>
      <p className="hint">Roles granted here hold across the workspace, in every project.</p>
      <PolicyEditor source={workspacePolicy} />
    </section>
  );
}
