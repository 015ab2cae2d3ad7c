// The administration pages (issue 28 items 5 and 6): where each lives, and
// the workspace permission that opens it. The navigation offers a page only
// to a user holding its permission; the server refuses the rest anyway.
import type { Permission } from "../iam/use-permissions.ts";

export const ADMIN_ROOT = "/admin";

export interface AdminSection {
  /** The path under ADMIN_ROOT. */
  path: string;
  title: string;
  /** Needed to open the page. */
  permission: Permission;
}

export const adminSections = {
  emergencyPause: { path: "/emergency-pause", title: "Emergency pause", permission: "bb.settings.get" },
  auditLog: { path: "/audit-log", title: "Audit log", permission: "bb.auditLogs.search" },
  members: { path: "/members", title: "Members and roles", permission: "bb.workspaces.getIamPolicy" },
  instances: { path: "/instances", title: "Instances", permission: "bb.instances.list" },
  // The settings pages are for those who may change them (decision 0125).
  workspaceProfile: { path: "/workspace-profile", title: "Workspace profile", permission: "bb.settings.set" },
  email: { path: "/email", title: "E-mail", permission: "bb.settings.set" },
  appIm: { path: "/instant-messaging", title: "Instant messaging", permission: "bb.settings.set" },
  monitoring: { path: "/monitoring", title: "Monitoring webhooks", permission: "bb.settings.set" },
  approvalRules: { path: "/approval-rules", title: "Approval rules", permission: "bb.settings.set" },
  maintenanceWindow: { path: "/maintenance-window", title: "Maintenance window", permission: "bb.settings.set" },
  deliveries: { path: "/notification-deliveries", title: "Notification deliveries", permission: "bb.settings.set" },
  environments: { path: "/environments", title: "Environments", permission: "bb.settings.get" },
  users: { path: "/users", title: "Users", permission: "bb.users.list" },
  groups: { path: "/groups", title: "Groups", permission: "bb.groups.list" },
  identityProviders: { path: "/identity-providers", title: "Identity providers", permission: "bb.identityProviders.get" },
} as const satisfies Record<string, AdminSection>;

export const ADMIN_SECTIONS: readonly AdminSection[] = Object.values(adminSections);

/** The full path of a section (or of a page below it). */
export function adminPath(section: AdminSection, below = ""): string {
  return `${ADMIN_ROOT}${section.path}${below}`;
}
