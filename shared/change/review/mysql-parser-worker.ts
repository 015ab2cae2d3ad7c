// A worker thread of the MySQL parser pool: parses the statements it is sent
// and answers their facts (mysql-parser-pool.ts).
import { parentPort } from "node:worker_threads";
import type { SqlStatement } from "../../inventory/index.ts";
import { parseMysqlPieces } from "./mysql-parser.ts";

export interface ParseRequest {
  id: number;
  pieces: SqlStatement[];
  firstIndex: number;
}

parentPort?.on("message", ({ id, pieces, firstIndex }: ParseRequest) => {
  try {
    parentPort!.postMessage({ id, statements: parseMysqlPieces(pieces, firstIndex) });
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
