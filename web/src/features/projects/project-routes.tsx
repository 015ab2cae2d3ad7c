// A project's own pages beside its issues: members and roles, databases and
// a database's schema. A chunk of its own.
import "../../styles/admin.css";
import { Route, Switch } from "wouter";
import { paths } from "../../routes/paths.ts";
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
      <Route component={NotFoundPage} />
    </Switch>
  );
}
