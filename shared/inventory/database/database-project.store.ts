// Which project a database belongs to: permission checks on database names
// are decided at that project's scope (contract §9.5), and a plan's targets
// must be databases of its project (§10.1).
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";

const projectIdRow = z.object({ project_id: z.string() });

export async function projectOfDatabase(db: CommonQueryMethods, instanceId: string, name: string): Promise<string | undefined> {
  return (
    (await db.maybeOneFirst(sql.type(projectIdRow)`
      select project_id from instance_database where instance_id = ${instanceId} and name = ${name}`)) ?? undefined
  );
}

const databaseState = z.object({ instance_id: z.string(), name: z.string(), project_id: z.string(), state: z.enum(["ACTIVE", "DELETED"]) });

export interface DatabaseOwnership {
  instanceId: string;
  name: string;
  projectId: string;
  state: "ACTIVE" | "DELETED";
}

/** The project and state of each named database that exists. */
export async function ownershipOfDatabases(
  db: CommonQueryMethods,
  refs: readonly { instanceId: string; name: string }[],
): Promise<DatabaseOwnership[]> {
  if (refs.length === 0) return [];
  const rows = await db.any(sql.type(databaseState)`
    select d.instance_id, d.name, d.project_id, d.state
    from instance_database d
    join unnest(${sql.array(refs.map((r) => r.instanceId), "text")}, ${sql.array(refs.map((r) => r.name), "text")}) as wanted (instance_id, name)
      on wanted.instance_id = d.instance_id and wanted.name = d.name`);
  return rows.map((r) => ({ instanceId: r.instance_id, name: r.name, projectId: r.project_id, state: r.state }));
}
