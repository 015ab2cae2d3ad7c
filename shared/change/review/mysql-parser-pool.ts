// MySQL scripts are parsed statement by statement (mysql-parser.ts:
// sqlparser-rs, node-sql-parser for what it leaves), 2–3 MB of the
// review's mix per second on one core: a large script is spread over worker
// threads (one per core, at most 4), so that a 2 MiB script takes less time
// and does not hold the caller's event loop for a second. The script goes out
// in small chunks that the workers take as they finish the previous ones, so
// a worker slowed down by other work on the machine leaves more of the script
// to the others, and the calling thread reads the answers while the workers
// go on. The workers start on first use and stay (without keeping the process
// alive) for the next script; if one fails, the script is parsed on the
// calling thread instead.
import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { SqlStatement } from "../../inventory/index.ts";
import { parseMysqlPieces, readyMysqlParser } from "./mysql-parser.ts";
import type { ParseRequest } from "./mysql-parser-worker.ts";
import type { ParsedStatement } from "./parsed-statement.ts";

/** Below this many characters a script is parsed on the calling thread (a round trip costs more than it saves). */
const POOL_THRESHOLD = 128 * 1024;
const MAX_WORKERS = 4;
/**
 * Characters of statements per message (a few milliseconds of parsing). Small
 * on purpose: a chunk's statements and facts are gone before the worker's next
 * young-generation collections, so little reaches its old generation and full
 * collections stay rare (each one also drops the parser's optimized code,
 * which the next script then compiles again): about a fifth less CPU per
 * script than with 32 kB chunks.
 */
const CHUNK_CHARS = 8 * 1024;
/** Chunks a worker holds at once: it starts on the next while its answer to the last one travels. */
const CHUNKS_IN_FLIGHT = 2;

type Reply = { id: number; statements: ParsedStatement[] } | { id: number; error: string };

class ParserWorker {
  private readonly worker = new Worker(new URL("./mysql-parser-worker.ts", import.meta.url));
  private readonly waiting = new Map<number, { resolve: (s: ParsedStatement[]) => void; reject: (e: Error) => void }>();
  private nextId = 0;
  alive = true;

  constructor() {
    this.worker.unref();
    this.worker.on("message", (reply: Reply) => this.settle(reply));
    this.worker.on("error", (error) => this.stop(error));
    this.worker.on("exit", (code) => this.stop(new Error(`the parser worker exited with code ${code}`)));
  }

  parse(pieces: SqlStatement[], firstIndex: number): Promise<ParsedStatement[]> {
    const id = this.nextId++;
    if (this.waiting.size === 0) this.worker.ref();
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ id, pieces, firstIndex } satisfies ParseRequest);
    });
  }

  private settle(reply: Reply): void {
    const waiter = this.waiting.get(reply.id);
    this.waiting.delete(reply.id);
    if (this.waiting.size === 0) this.worker.unref();
    if ("error" in reply) waiter?.reject(new Error(reply.error));
    else waiter?.resolve(reply.statements);
  }

  private stop(error: Error): void {
    this.alive = false;
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }
}

const workers: ParserWorker[] = [];

export async function parseMysqlStatements(pieces: readonly SqlStatement[]): Promise<ParsedStatement[]> {
  const chars = pieces.reduce((sum, piece) => sum + piece.text.length, 0);
  const count = Math.min(MAX_WORKERS, availableParallelism(), Math.ceil(chars / POOL_THRESHOLD));
  if (count < 2) return parseHere(pieces);
  const chunks = chunksOf(pieces, CHUNK_CHARS);
  const parsed: ParsedStatement[][] = [];
  let next = 0;
  let failed = false;
  const feed = async (worker: ParserWorker) => {
    while (!failed && next < chunks.length) {
      const i = next++;
      parsed[i] = await worker.parse(chunks[i]!.pieces, chunks[i]!.firstIndex);
    }
  };
  try {
    const pool = Array.from({ length: count }, (_, i) => workerAt(i));
    await Promise.all(pool.flatMap((worker) => Array.from({ length: CHUNKS_IN_FLIGHT }, () => feed(worker))));
    return parsed.flat();
  } catch {
    failed = true;
    return parseHere(pieces);
  }
}

async function parseHere(pieces: readonly SqlStatement[]): Promise<ParsedStatement[]> {
  await readyMysqlParser();
  return parseMysqlPieces(pieces, 0);
}

function workerAt(i: number): ParserWorker {
  if (!workers[i]?.alive) workers[i] = new ParserWorker();
  return workers[i]!;
}

/** Consecutive runs of statements of about `size` characters each. */
function chunksOf(pieces: readonly SqlStatement[], size: number): { pieces: SqlStatement[]; firstIndex: number }[] {
  const chunks: { pieces: SqlStatement[]; firstIndex: number }[] = [];
  let current: SqlStatement[] = [];
  let chars = 0;
  pieces.forEach((piece, index) => {
    if (current.length && chars >= size) {
      chunks.push({ pieces: current, firstIndex: index - current.length });
      current = [];
      chars = 0;
    }
    current.push(piece);
    chars += piece.text.length;
  });
  if (current.length) chunks.push({ pieces: current, firstIndex: pieces.length - current.length });
  return chunks;
}
