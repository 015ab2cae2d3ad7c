// Which project a database belongs to: permission checks on database names
// are decided at that project's scope (contract §9.5).
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";

export async function projectOfDatabase(db: CommonQueryMethods, instanceId: string, name: string): Promise<string | undefined> {
  return (
    (await db.maybeOneFirst(sql.type(z.object({ project_id: z.string() }))`
      select project_id from instance_database where instance_id = ${instanceId} and name = ${name}`)) ?? undefined
  );
}
