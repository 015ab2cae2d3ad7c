// A project's own pages beside its issues: members and roles, databases,
// a database's schema and revisions, releases, webhooks. A chunk of its own.
import "../../styles/admin.css";
import { Route, Switch } from "wouter";
import { paths } from "../../routes/paths.ts";
import { ProjectWebhooksPage } from "../project-webhooks/project-webhooks-page.tsx";
import { ReleasePage } from "../releases/release-page.tsx";
import { ReleasesPage } from "../releases/releases-page.tsx";
import { RevisionPage } from "../releases/revision-page.tsx";
import { RevisionsPage } from "../releases/revisions-page.tsx";
import { NotFoundPage } from "../shell/not-found-page.tsx";
import { DatabaseSchemaPage } from "./database-schema-page.tsx";
import { ProjectDatabasesPage } from "./project-databases-page.tsx";
import { ProjectMembersPage } from "./project-members-page.tsx";

export default function ProjectRoutes() {
  return (
    <Switch>
      <Route path={paths.projectMembers} component={ProjectMembersPage} />
      <Route path={paths.projectDatabases} component={ProjectDatabasesPage} />
      <Route path={paths.databaseSchema} component={DatabaseSchemaPage} />
      <Route path={paths.databaseRevisions} component={RevisionsPage} />
      <Route path={paths.databaseRevision} component={RevisionPage} />
      <Route path={paths.projectReleases} component={ReleasesPage} />
      <Route path={paths.release} component={ReleasePage} />
      <Route path={paths.projectWebhooks} component={ProjectWebhooksPage} />
      <Route component={NotFoundPage} />
    </Switch>
  );
}
