// The databases of a project to change, as checkboxes: each with its
// instance, environment and engine.
import { type Database, DatabaseService } from "@gen/svc/v1/database_service_pb.js";
import { Engine } from "@gen/svc/v1/instance_service_pb.js";
import { FormError } from "../../components/alert.tsx";
import { Loading } from "../../components/loading.tsx";
import type { Loaded } from "../../hooks/use-load.ts";
import { client } from "../../api/clients.ts";
import { lastSegment } from "../issues/issue-address.ts";

/** The project's databases (a project holds a few hundred at most; one page of 500). */
export async function projectDatabases(project: string, signal: AbortSignal): Promise<Database[]> {
  return (await client(DatabaseService).listDatabases({ parent: `projects/${project}`, pageSize: 500 }, { signal })).databases;
}

export function databaseTitle(database: Pick<Database, "name">): string {
  return database.name.replace(/^instances\//, "").replace("/databases/", " / ");
}

export function TargetPicker({ databases, chosen, onChange }: { databases: Loaded<Database[]>; chosen: string[]; onChange(targets: string[]): void }) {
  if (databases.status === "loading") return <Loading label="Reading the project's databases…" />;
  if (databases.status === "failed") return <FormError message={databases.message} />;
  const toggle = (name: string, on: boolean) => onChange(on ? [...chosen, name] : chosen.filter((t) => t !== name));
  return (
    <fieldset className="targets">
      <legend>Target databases</legend>
      {databases.value.length === 0 && <p className="empty">The project has no database yet.</p>}
      {databases.value.map((database) => (
        <label key={database.name} className="check">
          <input type="checkbox" checked={chosen.includes(database.name)} onChange={(event) => toggle(database.name, event.target.checked)} />
          <span>
            {databaseTitle(database)} <span className="subtitle">· {lastSegment(database.environment) || "no environment"} · {Engine[database.engine]}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}
