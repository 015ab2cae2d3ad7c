// What a finished SQL call leaves on the page.
import type { ExecutedStatement } from "@gen/svc/v1/sql_service_pb.js";
import type { ExportedFile } from "./export-file.ts";
import type { ShownResult } from "./packed-rows.ts";

export type Outcome =
  | { kind: "query"; results: ShownResult[] }
  | { kind: "explain"; plan: string; analyze: boolean }
  | { kind: "export"; file: ExportedFile }
  | { kind: "execute"; statements: ExecutedStatement[] };
