// Revision names (contract §0.3): instances/<i>/databases/<d>/revisions/<id>,
// the id a server-chosen number.
import { databaseName, type DatabaseRef, parseDatabaseName } from "../../inventory/index.ts";
import { invalidArgument, quoted } from "../../platform/index.ts";

export interface RevisionRef {
  database: DatabaseRef;
  id: number;
}

const REVISION_NAME = /^(instances\/[^/]+\/databases\/[^/]{1,128})\/revisions\/([1-9][0-9]{0,15})$/;

export function revisionName(ref: RevisionRef): string {
  return `${databaseName(ref.database)}/revisions/${ref.id}`;
}

export function parseRevisionName(name: string, field: string): RevisionRef {
  const match = REVISION_NAME.exec(name);
  const invalid = () => invalidArgument(`${field}: ${quoted(name)} is not a valid revision name; use instances/<instance_id>/databases/<database_name>/revisions/<revision_id>`);
  if (!match) throw invalid();
  try {
    return { database: parseDatabaseName(match[1]!, field), id: Number(match[2]) };
  } catch {
    throw invalid();
  }
}
