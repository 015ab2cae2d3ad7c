// graphile-worker's log lines on the service's logger: its line per job that
// succeeded is debug, the rest keep their level.
import assert from "node:assert/strict";
import { Writable } from "node:stream";
import { describe, it } from "node:test";
import { createLogger } from "../shared/platform/logger.ts";
import { createGraphileLogger } from "../worker/graphile-logger.ts";

function capturedLines(): { lines: Record<string, unknown>[]; stream: Writable } {
  const lines: Record<string, unknown>[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(JSON.parse(chunk.toString()));
      done();
    },
  });
  return { lines, stream };
}

describe("graphile-worker log lines", () => {
  it("writes a job's success as debug and keeps the level of other lines", async () => {
    const { lines, stream } = capturedLines();
    const graphile = createGraphileLogger(createLogger({ json: true, debug: true, destination: stream }));
    graphile.scope({ jobId: "7", taskIdentifier: "taskRun.execute", workerId: "w" }).info("Completed task 7 (taskRun.execute, 3.00ms) with success");
    graphile.scope({ jobId: "8", taskIdentifier: "taskRun.execute", workerId: "w" }).error("Failed task 8", { error: new Error("boom") });
    graphile.scope({ workerId: "w" }).info("Worker connected and looking for jobs...");
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(
      lines.map((line) => [line.level, line.job, line.msg]),
      [
        ["DEBUG", "7", "Completed task 7 (taskRun.execute, 3.00ms) with success"],
        ["ERROR", "8", "Failed task 8"],
        ["INFO", undefined, "Worker connected and looking for jobs..."],
      ],
    );
  });
});
