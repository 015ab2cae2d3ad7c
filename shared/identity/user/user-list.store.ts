// Listing users: the §2.4 filter fields over principal, and `outside_domains`
// (an end user whose address is outside the workspace's e-mail domains,
// identity-domain.store.ts); keyset paging on id.
import { sql, type CommonQueryMethods, type FragmentSqlToken } from "slonik";
import type { FilterTerm } from "../../platform/index.ts";
import { userOutsideDomains } from "./identity-domain.store.ts";
import { userColumns, userRow, type UserRow } from "./user.store.ts";

export interface UserListQuery {
  terms: readonly FilterTerm[];
  showDeleted: boolean;
  /** The workspace's e-mail domains, which `outside_domains` compares with. */
  domains: readonly string[];
  /** Return ids greater than this one (the page token's key). */
  afterId: number;
  limit: number;
}

const COLUMN: Record<string, FragmentSqlToken> = {
  login_id: sql.fragment`login_id`,
  email: sql.fragment`email`,
  title: sql.fragment`title`,
  state: sql.fragment`state`,
  type: sql.fragment`type`,
};

export async function listUsers(db: CommonQueryMethods, query: UserListQuery): Promise<readonly UserRow[]> {
  const conditions = [sql.fragment`id > ${query.afterId}`, ...query.terms.map((term) => condition(term, query.domains))];
  if (!query.showDeleted && !query.terms.some((t) => t.field === "state")) conditions.push(sql.fragment`state = 'ACTIVE'`);
  return db.any(sql.type(userRow)`
    select ${userColumns} from principal where ${sql.join(conditions, sql.fragment` and `)}
    order by id limit ${query.limit}`);
}

function condition(term: FilterTerm, domains: readonly string[]): FragmentSqlToken {
  if (term.field === "outside_domains") {
    const outside = (term.value === true) !== (term.op === "!=");
    return outside ? userOutsideDomains(domains) : sql.fragment`not ${userOutsideDomains(domains)}`;
  }
  const column = COLUMN[term.field]!;
  const value = String(term.value);
  const substring = term.field !== "state" && term.field !== "type";
  if (term.op === ":" && substring) return sql.fragment`strpos(lower(${column}), ${value.toLowerCase()}) > 0`;
  if (term.op === "!=") return sql.fragment`${column} <> ${value}`;
  return sql.fragment`${column} = ${term.field === "login_id" ? value.toLowerCase() : value}`;
}
