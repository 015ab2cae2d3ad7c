// The IAM scope a permission is checked at for a resource name (contract
// §6.4, §9.5): a name under projects/ names its project; a database name (and
// what sits under it) the project that holds the database; anything else,
// and a database that does not exist, is decided at workspace scope. It lives
// with the inventory because only the inventory knows which project holds a
// database.
import type { CommonQueryMethods } from "slonik";
import { permissionScope, WORKSPACE, type Permission } from "../identity/index.ts";
import { projectOfDatabase } from "./database/database-project.store.ts";

const PROJECT_OF = /^projects\/([^/]+)/;
const DATABASE_OF = /^instances\/([^/]+)\/databases\/([^/]+)/;

export async function accessScope(db: CommonQueryMethods, permission: Permission, resourceName: string): Promise<string> {
  if (permissionScope(permission) === "workspace") return WORKSPACE;
  const project = PROJECT_OF.exec(resourceName)?.[1];
  if (project) return `projects/${project}`;
  const database = DATABASE_OF.exec(resourceName);
  const holder = database && (await projectOfDatabase(db, database[1]!, database[2]!));
  return holder ? `projects/${holder}` : WORKSPACE;
}
