// Release names (contract §0.3): projects/<project_id>/releases/<release_id>,
// the id client-chosen or a server-chosen number.
import { invalidArgument, quoted } from "../../platform/index.ts";
import { projectName } from "../../inventory/index.ts";

export interface ReleaseRef {
  projectId: string;
  id: string;
}

const RELEASE_NAME = /^projects\/([a-z][a-z0-9-]{0,62})\/releases\/([a-z][a-z0-9-]{0,62}|[1-9][0-9]{0,18})$/;

export function releaseName(ref: ReleaseRef): string {
  return `${projectName(ref.projectId)}/releases/${ref.id}`;
}

export function parseReleaseName(name: string, field: string): ReleaseRef {
  const match = RELEASE_NAME.exec(name);
  if (!match) throw invalidArgument(`${field}: ${quoted(name)} is not a valid release name; use projects/<project_id>/releases/<release_id>`);
  return { projectId: match[1]!, id: match[2]! };
}
