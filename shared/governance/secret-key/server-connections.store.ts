// Whether servers are connected to the metadata store: their connections
// name themselves "svc" or "svc <part>" (APPLICATION_NAME). A key rotation
// needs every server stopped (contract §9.4), since a running one would go on
// sealing with the old key.
import { sql, type CommonQueryMethods } from "slonik";
import { APPLICATION_NAME, countRow } from "../../platform/index.ts";

/** How many connections to this database, other than the caller's own, belong to servers. */
export async function countServerConnections(db: CommonQueryMethods): Promise<number> {
  return db.oneFirst(sql.type(countRow)`
    select count(*)::int as n from pg_stat_activity
    where datname = current_database() and pid <> pg_backend_pid()
      and (application_name = ${APPLICATION_NAME} or application_name like ${`${APPLICATION_NAME} %`})`);
}
