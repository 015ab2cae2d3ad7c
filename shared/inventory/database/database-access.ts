// Access checks of the database RPCs whose permission depends on two
// projects (contract §9.5: a project change, a transfer), decided as the
// interceptor decides a single one (§6.4, §18.4): at the project holding the
// named resource (workspace scope for a database that does not exist).
import type { CommonQueryMethods } from "slonik";
import { requirePermission, storedIam, type IamSubject, type Permission } from "../../identity/index.ts";
import { accessScope } from "../access-scope.ts";

export async function requireAccess(db: CommonQueryMethods, caller: IamSubject, permission: Permission, resourceName: string): Promise<void> {
  await requirePermission(storedIam(db), caller, permission, await accessScope(db, permission, resourceName));
}
