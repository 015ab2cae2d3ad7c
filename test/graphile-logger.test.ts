// graphile-worker's log lines on the service's logger, as a real runner
// writes them: its line per job that succeeded is debug, a failed job's line
// stays an error and carries the correlation id of the job's payload.
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { after, before, describe, it } from "node:test";
import { run, type Runner } from "graphile-worker";
import pg from "pg";
import { createLogger } from "../shared/platform/logger.ts";
import { createGraphileLogger } from "../worker/graphile-logger.ts";
import { createTestDatabase, type TestDatabase } from "./helpers/db.ts";

describe("graphile-worker log lines", () => {
  let database: TestDatabase;
  let runner: Runner;
  let pool: pg.Pool;
  const lines: Record<string, unknown>[] = [];
  const handled = new Set<string>();

  before(async () => {
    database = await createTestDatabase({ empty: true });
    const stream = new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(JSON.parse(chunk.toString()));
        done();
      },
    });
    const logger = createLogger({ json: true, debug: true, destination: stream });
    // The runner's pool is ours, ended before the database is dropped (its connections are cut then).
    pool = new pg.Pool({ connectionString: database.url });
    pool.on("error", () => undefined);
    runner = await run({
      pgPool: pool,
      concurrency: 1,
      noHandleSignals: true,
      crontab: "",
      logger: createGraphileLogger(logger),
      taskList: {
        succeeds: async () => void handled.add("succeeds"),
        fails: async () => {
          handled.add("fails");
          throw new Error("boom");
        },
      },
    });
  });
  after(async () => {
    await runner.stop();
    await pool.end();
    await database.drop();
  });

  it("writes a job's success as debug and its failure as an error, each with the job", async () => {
    const succeeded = await runner.addJob("succeeds", {});
    const failed = await runner.addJob("fails", { correlationId: "abc-123" }, { maxAttempts: 1 });
    const lineOf = (prefix: string) => lines.find((line) => String(line.msg).startsWith(prefix));
    const deadline = Date.now() + 10_000;
    while (!(lineOf("Completed task") && lineOf("Failed task")) && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 20));
    assert.deepEqual([...handled].sort(), ["fails", "succeeds"]);
    assert.deepEqual([lineOf("Completed task")?.level, lineOf("Completed task")?.job], ["DEBUG", succeeded.id]);
    assert.deepEqual([lineOf("Failed task")?.level, lineOf("Failed task")?.job], ["ERROR", failed.id]);
    assert.deepEqual([lineOf("Failed task")?.job_name, lineOf("Failed task")?.correlation_id], ["fails", "abc-123"]);
    assert.equal(lineOf("Worker connected")?.level, "INFO");
  });
});
