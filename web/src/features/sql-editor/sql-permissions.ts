// The SQL Editor's permissions on a database's project (contract §14.1):
// Query needs bb.sql.select, Explain bb.sql.explain (and select to analyze),
// Export bb.sql.export, Execute (writes) bb.sql.admin.
import type { Permission } from "../iam/use-permissions.ts";

export const SQL_PERMISSIONS: readonly Permission[] = ["bb.sql.select", "bb.sql.explain", "bb.sql.export", "bb.sql.admin"];
