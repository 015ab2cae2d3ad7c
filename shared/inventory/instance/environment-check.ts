// An instance's or database's environment (contract §9.2): environments/<id>
// naming an entry of the ENVIRONMENT setting, read through the caller's
// transaction so that a setting written just before is seen.
import type { CommonQueryMethods } from "slonik";
import { invalidArgument, parseResourceName, quoted } from "../../platform/index.ts";
import { environmentName, readEnvironments, storedSettings } from "../../governance/index.ts";

/** The id of the environment the name gives; invalid_argument unless the ENVIRONMENT setting lists it. */
export async function checkEnvironment(db: CommonQueryMethods, name: string, field: string): Promise<string> {
  if (!name) throw invalidArgument(`${field} is required: environments/<id>`);
  const id = parseResourceName(name, "environments", field);
  const known = (await readEnvironments(storedSettings(db))).map((env) => env.id);
  if (!known.includes(id)) {
    throw invalidArgument(`${field}: ${quoted(name)} is not an environment of the ENVIRONMENT setting; known: ${known.map(environmentName).join(", ")}`);
  }
  return id;
}
