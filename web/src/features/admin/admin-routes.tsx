// The administration area: the sections the user may open, listed beside
// the page; /admin opens the first of them. A chunk of its own.
import "../../styles/admin.css";
import { Redirect, Route, Switch } from "wouter";
import { Loading } from "../../components/loading.tsx";
import { NavLink } from "../shell/nav-link.tsx";
import { NotFoundPage } from "../shell/not-found-page.tsx";
import { type Permissions, usePermissions, WORKSPACE } from "../iam/use-permissions.ts";
import { ADMIN_ROOT, ADMIN_SECTIONS, adminPath, adminSections } from "./admin-sections.ts";
import { AppImPage } from "./app-im/app-im-page.tsx";
import { ApprovalRulesPage } from "./approval/approval-rules-page.tsx";
import { AuditLogPage } from "./audit-log/audit-log-page.tsx";
import { DeliveriesPage } from "./deliveries/deliveries-page.tsx";
import { EmailPage } from "./email/email-page.tsx";
import { EmergencyPausePage } from "./emergency-pause/emergency-pause-page.tsx";
import { MaintenanceWindowPage } from "./maintenance-window/maintenance-window-page.tsx";
import { InstancesPage } from "./instances/instances-page.tsx";
import { MembersPage } from "./members/members-page.tsx";
import { MonitoringPage } from "./monitoring/monitoring-page.tsx";
import { WorkspaceProfilePage } from "./workspace-profile/workspace-profile-page.tsx";
import { EnvironmentsPage } from "./environments/environments-page.tsx";
import { GroupsPage } from "../people/groups-page.tsx";
import { IdentityProvidersPage } from "../people/identity-providers-page.tsx";
import { UsersPage } from "../people/users-page.tsx";

const SECTION_PERMISSIONS = ADMIN_SECTIONS.map((section) => section.permission);

export default function AdminRoutes() {
  const permissions = usePermissions(WORKSPACE, SECTION_PERMISSIONS);
  const open = ADMIN_SECTIONS.filter((section) => permissions.can(section.permission));
  return (
    <div className="admin">
      <nav aria-label="Administration" className="admin-nav">
        <ul>
          {open.map((section) => (
            <li key={section.path}>
              <NavLink href={adminPath(section)}>{section.title}</NavLink>
            </li>
          ))}
        </ul>
      </nav>
      <div>
        <Switch>
          <Route path={ADMIN_ROOT}>
            <AdminHome permissions={permissions} />
          </Route>
          <Route path={adminPath(adminSections.emergencyPause)} component={EmergencyPausePage} />
          <Route path={adminPath(adminSections.auditLog)} component={AuditLogPage} />
          <Route path={adminPath(adminSections.members)} component={MembersPage} />
          <Route path={adminPath(adminSections.instances)} component={InstancesPage} />
          <Route path={adminPath(adminSections.workspaceProfile)} component={WorkspaceProfilePage} />
          <Route path={adminPath(adminSections.email)} component={EmailPage} />
          <Route path={adminPath(adminSections.appIm)} component={AppImPage} />
          <Route path={adminPath(adminSections.monitoring)} component={MonitoringPage} />
          <Route path={adminPath(adminSections.approvalRules)} component={ApprovalRulesPage} />
          <Route path={adminPath(adminSections.maintenanceWindow)} component={MaintenanceWindowPage} />
          <Route path={adminPath(adminSections.deliveries)} component={DeliveriesPage} />
          <Route path={adminPath(adminSections.environments)} component={EnvironmentsPage} />
          <Route path={adminPath(adminSections.users)} component={UsersPage} />
          <Route path={adminPath(adminSections.groups)} component={GroupsPage} />
          <Route path={adminPath(adminSections.identityProviders)} component={IdentityProvidersPage} />
          <Route component={NotFoundPage} />
        </Switch>
      </div>
    </div>
  );
}

function AdminHome({ permissions }: { permissions: Permissions }) {
  if (!permissions.ready) return <Loading />;
  const first = ADMIN_SECTIONS.find((section) => permissions.can(section.permission));
  if (first) return <Redirect to={adminPath(first)} replace />;
  return (
    <section className="page">
      <h1>Administration</h1>
      <p className="empty">{permissions.error ?? "Your roles open no administration page."}</p>
    </section>
  );
}
