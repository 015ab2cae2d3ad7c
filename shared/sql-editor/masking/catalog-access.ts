// Who may read and mark a database's columns (contract §19.2, §6.1, §6.2):
// the database's own permission on its project (bb.databases.get / update),
// as §19.2 says, or the workspace's masking permission (bb.policies.get /
// update), which §6.1 gives to "masking and classification policies" and the
// securityOfficer role holds: the officer manages masking, and marking a
// column is how masking starts. A refusal names the database's permission.
import type { CommonQueryMethods } from "slonik";
import { hasPermission, type IamSubject, type Permission, requirePermission, storedIam, WORKSPACE } from "../../identity/index.ts";
import { accessScope, databaseName, type DatabaseRef } from "../../inventory/index.ts";

const ACCESS: Record<"read" | "write", { database: Permission; masking: Permission }> = {
  read: { database: "bb.databases.get", masking: "bb.policies.get" },
  write: { database: "bb.databases.update", masking: "bb.policies.update" },
};

export async function requireCatalogAccess(db: CommonQueryMethods, caller: IamSubject, ref: DatabaseRef, use: "read" | "write"): Promise<void> {
  const iam = storedIam(db);
  const { database, masking } = ACCESS[use];
  if (await hasPermission(iam, caller, masking, WORKSPACE)) return;
  await requirePermission(iam, caller, database, await accessScope(db, database, databaseName(ref)));
}
