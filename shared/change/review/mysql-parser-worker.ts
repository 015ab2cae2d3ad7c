// A worker thread of the MySQL parser pool: parses the statements it is sent
// and answers their facts (mysql-parser-pool.ts), once sqlparser-rs's WASM
// module has loaded in this thread.
import { parentPort } from "node:worker_threads";
import type { SqlStatement } from "../../inventory/index.ts";
import { parseMysqlPieces, readyMysqlParser } from "./mysql-parser.ts";

export interface ParseRequest {
  id: number;
  pieces: SqlStatement[];
  firstIndex: number;
}

const ready = readyMysqlParser();

parentPort?.on("message", async ({ id, pieces, firstIndex }: ParseRequest) => {
  try {
    await ready;
    parentPort!.postMessage({ id, statements: parseMysqlPieces(pieces, firstIndex) });
  } catch (error) {
    parentPort!.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
