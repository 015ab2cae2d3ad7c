// Where the statements run: a project the user can see, then one of its
// databases still on its instance — offered only where the user holds one
// of the SQL Editor's permissions in that project.
import { type Database, Database_State, DatabaseService } from "@gen/svc/v1/database_service_pb.js";
import { ProjectService } from "@gen/svc/v1/project_service_pb.js";
import { useId, useState } from "react";
import { client } from "../../api/clients.ts";
import { FormError } from "../../components/alert.tsx";
import { useLoad } from "../../hooks/use-load.ts";
import { usePermissions, WORKSPACE } from "../iam/use-permissions.ts";
import { allPages } from "./all-pages.ts";
import { SQL_PERMISSIONS } from "./sql-permissions.ts";

export function DatabasePicker({ value, onChange }: { value: Database | undefined; onChange(database: Database | undefined): void }) {
  const projectId = useId();
  const databaseId = useId();
  const [project, setProject] = useState("");
  const projects = useLoad(
    (signal) => allPages(async (pageToken) => {
      const reply = await client(ProjectService).listProjects({ pageToken, pageSize: 1000 }, { signal });
      return { items: reply.projects, nextPageToken: reply.nextPageToken };
    }),
    [],
  );
  const permissions = usePermissions(project || WORKSPACE, SQL_PERMISSIONS);
  const allowed = Boolean(project) && permissions.ready && SQL_PERMISSIONS.some((p) => permissions.can(p));
  const databases = useLoad(async (signal) => {
    if (!allowed) return [];
    const listed = await allPages(async (pageToken) => {
      const reply = await client(DatabaseService).listDatabases({ parent: project, pageToken, pageSize: 1000 }, { signal });
      return { items: reply.databases, nextPageToken: reply.nextPageToken };
    });
    return listed.filter((database) => database.state !== Database_State.DELETED);
  }, [project, allowed]);
  const databaseList = databases.status === "done" ? databases.value : [];

  return (
    <div className="database-picker">
      <div className="field">
        <label htmlFor={projectId}>Project</label>
        <select
          id={projectId}
          value={project}
          onChange={(event) => {
            setProject(event.target.value);
            onChange(undefined);
          }}
        >
          <option value="">{projects.status === "loading" ? "Loading…" : "Choose a project"}</option>
          {projects.status === "done" &&
            projects.value.map((p) => (
              <option key={p.name} value={p.name}>
                {p.title || p.name.slice("projects/".length)}
              </option>
            ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor={databaseId}>Database</label>
        <select
          id={databaseId}
          value={value?.name ?? ""}
          disabled={!allowed || databases.status !== "done"}
          onChange={(event) => onChange(databaseList.find((d) => d.name === event.target.value))}
        >
          <option value="">{databaseHint(project, permissions.ready, allowed, databases.status, databaseList.length)}</option>
          {databaseList.map((database) => (
            <option key={database.name} value={database.name}>
              {databaseLabel(database.name)}
            </option>
          ))}
        </select>
      </div>
      <FormError message={projects.status === "failed" ? projects.message : ((project ? permissions.error : undefined) ?? (databases.status === "failed" ? databases.message : undefined))} />
    </div>
  );
}

function databaseHint(project: string, checked: boolean, allowed: boolean, status: string, count: number): string {
  if (!project) return "Choose a project first";
  if (!checked || status === "loading") return "Loading…";
  if (!allowed) return "No SQL Editor permission in this project";
  return count ? "Choose a database" : "No database in this project";
}

/** "instances/pg/databases/shop" → "shop (pg)". */
export function databaseLabel(name: string): string {
  const [, instance, , database] = name.split("/");
  return `${database} (${instance})`;
}
