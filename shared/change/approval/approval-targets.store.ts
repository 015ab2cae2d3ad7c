// What approval rules read about the target databases of a plan (contract
// §7.3): the effective environment and the engine of each.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import type { DatabaseRef } from "../../inventory/index.ts";

const targetRow = z.object({ instance_id: z.string(), name: z.string(), environment: z.string(), engine: z.string() });

export interface TargetFacts extends DatabaseRef {
  /** The environment id that applies (the database's own, else its instance's). */
  environment: string;
  engine: string;
}

/** The facts of each named database that exists. */
export async function targetFacts(db: CommonQueryMethods, refs: readonly DatabaseRef[]): Promise<TargetFacts[]> {
  if (refs.length === 0) return [];
  const rows = await db.any(sql.type(targetRow)`
    select d.instance_id, d.name, coalesce(d.environment, i.environment) as environment, i.engine
    from instance_database d
    join instance i on i.id = d.instance_id
    join unnest(${sql.array(refs.map((r) => r.instanceId), "text")}, ${sql.array(refs.map((r) => r.name), "text")}) as wanted (instance_id, name)
      on wanted.instance_id = d.instance_id and wanted.name = d.name`);
  return rows.map((r) => ({ instanceId: r.instance_id, name: r.name, environment: r.environment, engine: r.engine }));
}
