// A project's members and roles: its IAM policy (contract §6.4) in the
// console's policy editor, written whole under the etag read.
import { ProjectService } from "@gen/svc/v1/project_service_pb.js";
import { useMemo } from "react";
import { useParams } from "wouter";
import { client } from "../../api/clients.ts";
import { useDocumentTitle } from "../../hooks/use-document-title.ts";
import { type PolicySource, PolicyEditor } from "../admin/members/policy-editor.tsx";
import { ProjectLinks } from "./project-links.tsx";

function projectPolicy(project: string): PolicySource {
  const resource = `projects/${project}`;
  return {
    resource,
    setPermission: "bb.projects.setIamPolicy",
    read: (signal) => client(ProjectService).getProjectIamPolicy({ resource }, { signal }),
    write: (bindings, etag) => client(ProjectService).setProjectIamPolicy({ resource, policy: { bindings }, etag }),
  };
}

export function ProjectMembersPage() {
  const project = useParams<{ project: string }>().project ?? "";
  useDocumentTitle(`Members of ${project}`);
  const source = useMemo(() => projectPolicy(project), [project]);
  return (
    <section aria-labelledby="project-members-heading" className="page">
      <h1 id="project-members-heading">Members of {project}</h1>
      <ProjectLinks project={project} />
      <p className="hint">Roles granted here hold in this project only, on top of the workspace's.</p>
      <PolicyEditor source={source} />
    </section>
  );
}
