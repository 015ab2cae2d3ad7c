// The signed-in console: every page inside the shell.
import { lazy, Suspense } from "react";
import { Redirect, Route, Switch } from "wouter";
import { AccountPage } from "../features/account/account-page.tsx";
import { IssuePage } from "../features/issues/issue-page.tsx";
import { IssuesPage } from "../features/issues/issues-page.tsx";
import { ProjectsPage } from "../features/projects/projects-page.tsx";
import { AppShell } from "../features/shell/app-shell.tsx";
import { NotFoundPage } from "../features/shell/not-found-page.tsx";
import { Loading } from "../components/loading.tsx";
import { paths } from "./paths.ts";
import { ADMIN_ROOT } from "../features/admin/admin-sections.ts";

// A chunk of its own: the editor (CodeMirror) loads only with its page.
const SqlEditorPage = lazy(() => import("../features/sql-editor/sql-editor-page.tsx").then((m) => ({ default: m.SqlEditorPage })));

// The administration pages, a chunk of their own.
const AdminRoutes = lazy(() => import("../features/admin/admin-routes.tsx"));

// A project's members, databases, schemas, releases and webhooks, a chunk of their own.
const ProjectRoutes = lazy(() => import("../features/projects/project-routes.tsx"));

// The page creating a change, a chunk of its own: the SQL field (CodeMirror) loads only with it.
const NewChangePage = lazy(() => import("../features/changes/new-change-page.tsx"));

export default function ConsoleRoutes() {
  return (
    <AppShell>
      <Switch>
        <Route path={paths.home}>
          <Redirect to={paths.issues} replace />
        </Route>
        <Route path={paths.issues} component={IssuesPage} />
        <Route path={paths.projects} component={ProjectsPage} />
        <Route path={paths.sqlEditor}>
          <Suspense fallback={<Loading />}>
            <SqlEditorPage />
          </Suspense>
        </Route>
        <Route path={paths.newChange}>
          <Suspense fallback={<Loading />}>
            <NewChangePage />
          </Suspense>
        </Route>
        <Route path={paths.issue} component={IssuePage} />
        {[paths.projectMembers, `${paths.projectDatabases}/*?`, `${paths.projectReleases}/*?`, paths.projectWebhooks].map((path) => (
          <Route key={path} path={path}>
            <Suspense fallback={<Loading />}>
              <ProjectRoutes />
            </Suspense>
          </Route>
        ))}
        <Route path={paths.account} component={AccountPage} />
        <Route path={`${ADMIN_ROOT}/*?`}>
          <Suspense fallback={<Loading />}>
            <AdminRoutes />
          </Suspense>
        </Route>
        <Route component={NotFoundPage} />
      </Switch>
    </AppShell>
  );
}
