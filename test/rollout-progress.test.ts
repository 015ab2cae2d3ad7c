// Settlements run side by side without the rollout's lock, and the rollout
// follows up after each commit (contract §12.2; shared/change/pipeline/progress.ts).
// When the last tasks of a stage end at the same moment, one of their
// follow-ups must still see the stage finished: the rollout is DONE right
// after its last run ends, well before the reconciler's next pass (10 s)
// could have repaired a follow-up that saw nothing to do.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { RolloutHarness, type Json, type PgTarget } from "./helpers/rollout-harness.ts";

const TARGETS = 8;
const REPAIR_PASS_MS = 10_000;
const SLOW_CHANGE_MS = 4_000;

describe("rollout progress under concurrent settlements", () => {
  const harness = new RolloutHarness("progress");
  let targets: PgTarget[] = [];

  before(async () => {
    targets = await harness.start(TARGETS);
  });
  after(() => harness.stop());

  it("is DONE as soon as the last of many concurrent runs ends", async () => {
    const plan = await harness.ok("POST", "/v1/projects/progress/plans", {
      title: "one table everywhere",
      specs: [{ changeDatabaseConfig: { targets: targets.map((t) => t.resource), statement: "create table progressed (id int)" } }],
    });
    const planId = String(plan.name).split("/").at(-1)!;
    const rollout = await harness.rollout(planId);
    let current: Json = rollout;
    const deadline = Date.now() + 60_000;
    while (current.state !== "DONE" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      current = await harness.ok("GET", `/v1/${rollout.name}`);
    }
    assert.equal(current.state, "DONE", JSON.stringify(current));
    assert.equal(current.stages[0].state, "DONE");
    assert.ok((current.tasks as Json[]).every((t) => t.state === "DONE"));
    const lastEnd = Math.max(...(await Promise.all((current.tasks as Json[]).map(async (t) => Date.parse((await harness.runs(t))[0]!.endTime)))));
    const doneAt = Date.parse(current.updateTime);
    assert.ok(doneAt - lastEnd < REPAIR_PASS_MS / 5, `the rollout became DONE ${doneAt - lastEnd} ms after its last run ended`);
    for (const target of targets) await target.query("select 1 from progressed");
  });

  it("starts a database's next change as soon as its last one is DONE, while another database is still busy", async () => {
    // Each database gets two tasks in one stage, the second NOT_STARTED until the first is DONE;
    // the first database's first change takes seconds, the others' next changes must not wait for it.
    const [slow, ...quick] = targets;
    const plan = await harness.ok("POST", "/v1/projects/progress/plans", {
      title: "a table, then its row",
      specs: [
        { changeDatabaseConfig: { targets: [slow!.resource], statement: `select pg_sleep(${SLOW_CHANGE_MS / 1000});\ncreate table ordered (id int)` } },
        { changeDatabaseConfig: { targets: quick.map((t) => t.resource), statement: "create table ordered (id int)" } },
        { changeDatabaseConfig: { targets: targets.map((t) => t.resource), statement: "insert into ordered values (1)" } },
      ],
    });
    const rollout = await harness.rollout(String(plan.name).split("/").at(-1)!);
    let current: Json = rollout;
    const deadline = Date.now() + 60_000;
    while (current.state !== "DONE" && current.state !== "FAILED" && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      current = await harness.ok("GET", `/v1/${rollout.name}`);
    }
    assert.equal(current.state, "DONE", JSON.stringify(current));
    const tasks = current.tasks as Json[];
    assert.equal(tasks.length, 2 * TARGETS);
    const endOf = async (task: Json) => Date.parse((await harness.runs(task))[0]!.endTime);
    const slowFirst = tasks.find((t) => t.target === slow!.resource)!;
    const quickLast = tasks.filter((t) => t.target !== slow!.resource).slice(-quick.length);
    const slowEnd = await endOf(slowFirst);
    for (const task of quickLast) assert.ok((await endOf(task)) < slowEnd, `${task.name} (${task.target}) waited for the slow database's change`);
    for (const target of targets) assert.deepEqual((await target.query("select id from ordered")).rows, [{ id: 1 }]);
  });
});
