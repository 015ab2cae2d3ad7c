// Settlements run side by side without the rollout's lock, and the rollout
// follows up after each commit (contract §12.2; shared/rollout/progress.ts).
// When the last tasks of a stage end at the same moment, one of their
// follow-ups must still see the stage finished: the rollout is DONE right
// after its last run ends, well before the reconciler's next pass (10 s)
// could have repaired a follow-up that saw nothing to do.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { RolloutHarness, type Json, type PgTarget } from "./helpers/rollout-harness.ts";

const TARGETS = 8;
const REPAIR_PASS_MS = 10_000;

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
});
