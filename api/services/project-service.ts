// ProjectService: projects, their IAM policies and their webhooks (contract
// §9.1, §6.4, §19.3).
import { ProjectService } from "../../shared/gen/svc/v1/project_service_pb.js";
import { findPolicies, type IamReads, setIamPolicy } from "../../shared/identity/index.ts";
import {
  activeProject,
  createProject,
  deleteProject,
  getProject,
  listProjectPage,
  parseProjectName,
  projectName,
  undeleteProject,
  updateProject,
} from "../../shared/inventory/index.ts";
import { readWorkspaceProfile, type SettingReader } from "../../shared/governance/index.ts";
import { auditScope } from "../transport/audit-scope.ts";
import { callerOf } from "../transport/interceptors/authn.ts";
import { registration } from "../transport/services.ts";
import { bindingInputs, toIamPolicy } from "./iam-policy-convert.ts";
import { projectDraft, toProject } from "./project-convert.ts";
import { projectWebhookHandlers, type WebhookDeps } from "./project-webhook-handlers.ts";

export interface ProjectDeps extends WebhookDeps {
  /** IAM reads for permission checks (the access cache). */
  iam: IamReads;
  settings: SettingReader;
}

export function projectService(deps: ProjectDeps) {
  return registration(ProjectService, {
    ...projectWebhookHandlers(deps),
    async getProject(req) {
      return toProject(await getProject(deps.db, parseProjectName(req.name, "name")));
    },
    async listProjects(req, context) {
      const page = await listProjectPage(deps.db, deps.iam, callerOf(context), req);
      return { projects: page.rows.map(toProject), nextPageToken: page.nextPageToken };
    },
    async createProject(req, context) {
      const audit = auditScope(context);
      return toProject(await createProject(audit, callerOf(context).loginId, req.projectId, projectDraft(req.project)));
    },
    async updateProject(req, context) {
      const project = await updateProject(auditScope(context).tx, {
        id: parseProjectName(req.project?.name ?? "", "project.name"),
        draft: projectDraft(req.project),
        paths: req.updateMask?.paths ?? [],
        etag: req.project?.etag ?? "",
      });
      return toProject(project);
    },
    async deleteProject(req, context) {
      await deleteProject(auditScope(context).tx, parseProjectName(req.name, "name"));
      return {};
    },
    async undeleteProject(req, context) {
      return toProject(await undeleteProject(auditScope(context).tx, parseProjectName(req.name, "name")));
    },
    async getProjectIamPolicy(req) {
      const id = parseProjectName(req.resource, "resource");
      await getProject(deps.db, id);
      const [policy] = await findPolicies(deps.db, [projectName(id)]);
      if (!policy) throw new Error(`the policy row of ${projectName(id)} is created with the project`);
      return toIamPolicy(policy);
    },
    async setProjectIamPolicy(req, context) {
      const audit = auditScope(context);
      const id = parseProjectName(req.resource, "resource");
      await activeProject(audit.tx, id);
      const profile = await readWorkspaceProfile(deps.settings);
      const policy = await setIamPolicy(audit, callerOf(context).name, {
        scope: projectName(id),
        bindings: bindingInputs(req.policy),
        etag: req.etag || req.policy?.etag || "",
        maximumRoleExpirationMs: profile.maximumRoleExpirationMs,
      });
      return toIamPolicy(policy);
    },
  });
}
