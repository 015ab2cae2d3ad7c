// SQL of the workspace's e-mail domains: identity-domain-rule.ts stated over
// principal and user_group rows, for ListUsers' `outside_domains` filter and
// the report of existing users and groups outside the domains.
import { sql, type CommonQueryMethods, type FragmentSqlToken } from "slonik";
import { z } from "zod";

/** email.ts's shape of an address, which a login id may have. */
const ADDRESS = "^[^\\s@]+@[^\\s@]+$";
/** What follows the last "@". */
const DOMAIN_PART = "@([^@]*)$";

/** True when `address` (a text expression) has no domain, or one not in `domains`. */
function addressOutside(address: FragmentSqlToken, domains: readonly string[]): FragmentSqlToken {
  const domain = sql.fragment`lower(substring(${address}, ${DOMAIN_PART}::text))`;
  return sql.fragment`not coalesce(${domain} = any(${sql.array(domains, "text")}), false)`;
}

/** A condition on principal: an end user whose e-mail, else its login id when that is an address, is outside `domains`. */
export function userOutsideDomains(domains: readonly string[]): FragmentSqlToken {
  const address = sql.fragment`case when email <> '' then email when login_id ~ ${ADDRESS}::text then login_id end`;
  return sql.fragment`(type = 'END_USER' and ${addressOutside(address, domains)})`;
}

export interface Outsiders {
  count: number;
  /** The first ones in id order: login ids, or group ids. */
  ids: string[];
}

const outsiderRow = z.object({ id: z.string(), total: z.coerce.number() });

/** Active end users outside `domains`: how many, and the first `limit` by login id. */
export async function activeUsersOutside(db: CommonQueryMethods, domains: readonly string[], limit: number): Promise<Outsiders> {
  return outsiders(await db.any(sql.type(outsiderRow)`
    select login_id as id, count(*) over () as total from principal
    where state = 'ACTIVE' and ${userOutsideDomains(domains)}
    order by id limit ${limit}`));
}

/** Groups with an e-mail outside `domains`: how many, and the first `limit` of them by id. */
export async function groupsOutside(db: CommonQueryMethods, domains: readonly string[], limit: number): Promise<Outsiders> {
  return outsiders(await db.any(sql.type(outsiderRow)`
    select id, count(*) over () as total from user_group
    where email <> '' and ${addressOutside(sql.fragment`email`, domains)}
    order by id limit ${limit}`));
}

function outsiders(rows: readonly z.infer<typeof outsiderRow>[]): Outsiders {
  return { count: rows[0]?.total ?? 0, ids: rows.map((row) => row.id) };
}
