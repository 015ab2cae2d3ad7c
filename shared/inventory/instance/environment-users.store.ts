// Which active instances and databases name an environment (contract §7.7):
// an environment they use cannot be removed.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";

const environmentUser = z.object({ environment: z.string(), resource: z.string() });

/** Up to `limit` users of the environments (a database counts when it names its own), sorted. */
export async function findEnvironmentUsers(
  db: CommonQueryMethods,
  environmentIds: readonly string[],
  limit: number,
): Promise<readonly z.infer<typeof environmentUser>[]> {
  const ids = sql.array(environmentIds, "text");
  return db.any(sql.type(environmentUser)`
    select environment, 'instances/' || id as resource
    from instance where state = 'ACTIVE' and environment = any(${ids})
    union all
    select environment, 'instances/' || instance_id || '/databases/' || name
    from instance_database where state = 'ACTIVE' and environment = any(${ids})
    order by environment, resource
    limit ${limit}`);
}
