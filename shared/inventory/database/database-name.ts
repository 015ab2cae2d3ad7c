// Database resource names (contract §0.3): instances/<instance_id>/databases/<database_name>.
// The database part is the engine's own name, so it may hold upper-case
// letters and punctuation, but never a slash.
import { invalidArgument, quoted, RESOURCE_ID_PATTERN } from "../../platform/index.ts";

export interface DatabaseRef {
  instanceId: string;
  name: string;
}

const DATABASE_NAME = /^instances\/([^/]+)\/databases\/([^/]{1,128})$/;

export function databaseName(ref: DatabaseRef): string {
  return `instances/${ref.instanceId}/databases/${ref.name}`;
}

export function parseDatabaseName(text: string, field: string): DatabaseRef {
  const match = DATABASE_NAME.exec(text);
  if (!match || !RESOURCE_ID_PATTERN.test(match[1]!)) {
    throw invalidArgument(`${field}: ${quoted(text)} is not a valid database name; use instances/<instance_id>/databases/<database_name>`);
  }
  return { instanceId: match[1]!, name: match[2]! };
}
