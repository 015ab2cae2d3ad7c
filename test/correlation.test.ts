// The work's fields (contract §15.5) in one process: every line logged while
// work runs carries its correlation id and resources, written once even by a
// logger that binds the id itself; every job it enqueues, by each of the
// platform's ways of adding jobs (one, several, selected by a named
// statement), carries the correlation id in its payload, and a job added
// outside any work carries none.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { sql } from "slonik";
import { z } from "zod";
import { createDb, type Db } from "../shared/platform/db.ts";
import { addJob, addKeyedJobs, addKeyedJobsSelected } from "../shared/platform/jobs/jobs.store.ts";
import { addLogFields, withLogFields, withNewCorrelationId } from "../shared/platform/log-context.ts";
import { createLogger } from "../shared/platform/logger.ts";
import { createTestDatabase, type TestDatabase } from "./helpers/db.ts";
import { quietLogger } from "./helpers/logger.ts";

function capture(json: boolean): { lines: string[]; logger: ReturnType<typeof createLogger> } {
  const lines: string[] = [];
  const logger = createLogger({ json, debug: false, destination: { write: (line: string) => void lines.push(line) } });
  return { lines, logger };
}

describe("log lines of the work at hand", () => {
  it("carry the work's fields, nested work's fields over them, and none outside", async () => {
    const { lines, logger } = capture(true);
    logger.info("before");
    await withLogFields({ correlation_id: "c-1", plan: "projects/p/plans/1" }, async () => {
      await new Promise((resolve) => setTimeout(resolve, 1));
      logger.info("in the work");
      await withLogFields({ task_run: "projects/p/rollouts/1/tasks/2/taskRuns/3", plan: undefined }, async () => logger.info("nested"));
      logger.info({ plan: "projects/p/plans/9" }, "own field");
    });
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    const pick = (line: Record<string, unknown>) => [line.msg, line.correlation_id, line.plan, line.task_run];
    assert.deepEqual(parsed.map(pick), [
      ["before", undefined, undefined, undefined],
      ["in the work", "c-1", "projects/p/plans/1", undefined],
      ["nested", "c-1", "projects/p/plans/1", "projects/p/rollouts/1/tasks/2/taskRuns/3"],
      ["own field", "c-1", "projects/p/plans/9", undefined],
    ]);
  });

  it("write the correlation id once when the logger binds it (a request's logger), in both forms", () => {
    for (const json of [true, false]) {
      const { lines, logger } = capture(json);
      withLogFields({ correlation_id: "req-7", actor: "users/alice" }, () => logger.child({ correlation_id: "req-7" }).info("rpc done"));
      assert.equal(lines.length, 1);
      assert.equal(lines[0]!.match(/correlation_id/g)?.length, 1, lines[0]);
      assert.match(lines[0]!, /users\/alice/);
    }
  });

  it("gain the fields added during the work for the rest of it (an API call's caller once authenticated), and nothing outside", async () => {
    const { lines, logger } = capture(true);
    addLogFields({ actor: "users/nobody" });
    await withLogFields({ correlation_id: "req-8" }, async () => {
      logger.info("before sign-in");
      await withLogFields({ plan: "projects/p/plans/2" }, async () => addLogFields({ task: "projects/p/rollouts/1/tasks/1" }));
      addLogFields({ actor: "users/alice" });
      await new Promise((resolve) => setTimeout(resolve, 1));
      logger.info("after sign-in");
    });
    logger.info("after the work");
    const parsed = lines.map((line) => JSON.parse(line) as Record<string, unknown>);
    assert.deepEqual(
      parsed.map((line) => [line.msg, line.correlation_id, line.actor, line.task]),
      [
        ["before sign-in", "req-8", undefined, undefined],
        ["after sign-in", "req-8", "users/alice", undefined],
        ["after the work", undefined, undefined, undefined],
      ],
    );
  });

  it("get a new correlation id for each background run", () => {
    const { lines, logger } = capture(true);
    withNewCorrelationId(() => logger.info("first pass"));
    withNewCorrelationId(() => logger.info("second pass"));
    const ids = lines.map((line) => (JSON.parse(line) as { correlation_id?: string }).correlation_id);
    assert.equal(ids.length, 2);
    for (const id of ids) assert.match(String(id), /^[0-9a-f-]{36}$/);
    assert.notEqual(ids[0], ids[1]);
  });
});

describe("jobs enqueued by the work at hand", () => {
  let database: TestDatabase;
  let db: Db;
  before(async () => {
    database = await createTestDatabase();
    db = await createDb(database.url, quietLogger());
  });
  after(async () => {
    await db?.end();
    await database?.drop();
  });

  const payloads = (identifier: string) =>
    db.manyFirst(sql.type(z.object({ payload: z.record(z.string(), z.unknown()) }))`
      select j.payload from graphile_worker._private_jobs j join graphile_worker._private_tasks t on t.id = j.task_id
      where t.identifier = ${identifier} order by j.id`);

  it("carry its correlation id in their payload, whichever way they are added; none outside any work", async () => {
    await withLogFields({ correlation_id: "abc-123" }, async () => {
      await addJob(db, "plan.check", { runId: 1 });
      await addKeyedJobs(db, "taskRun.execute", [{ payload: { taskRunId: 1 }, jobKey: "test:1" }]);
      await addKeyedJobsSelected(db, "test.correlation_selected_jobs", "taskRun.execute", sql.fragment`
        select jsonb_build_object('taskRunId', 2) as payload, 'test:2' as job_key, 1 as position`);
    });
    await addJob(db, "instance.sync", { instanceId: "outside" });
    assert.deepEqual(await payloads("plan.check"), [{ runId: 1, correlationId: "abc-123" }]);
    assert.deepEqual(await payloads("taskRun.execute"), [
      { taskRunId: 1, correlationId: "abc-123" },
      { taskRunId: 2, correlationId: "abc-123" },
    ]);
    assert.deepEqual(await payloads("instance.sync"), [{ instanceId: "outside" }]);
  });

  it("keep one text for a named statement, with or without a correlation id", async () => {
    const select = (id: number) => sql.fragment`select jsonb_build_object('taskRunId', ${id}::int) as payload, 'test:n' || ${id}::int as job_key, 1 as position`;
    await addKeyedJobsSelected(db, "test.correlation_named_jobs", "taskRun.execute", select(10));
    await withLogFields({ correlation_id: "after-1" }, () => addKeyedJobsSelected(db, "test.correlation_named_jobs", "taskRun.execute", select(11)));
    const added = (await payloads("taskRun.execute")).filter((p) => Number(p.taskRunId) >= 10);
    assert.deepEqual(added, [{ taskRunId: 10 }, { taskRunId: 11, correlationId: "after-1" }]);
  });
});
