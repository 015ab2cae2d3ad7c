// The start gate's plan-check rule (contract §12.2): when the project
// requires plan checks to pass, a task whose target had an ERROR in the
// plan's latest finished check run waits ("plan check errors"), while the
// plan's other targets go on; without the requirement it runs.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { eventually } from "./helpers/instances.ts";
import { RolloutHarness, type Json, type PgTarget } from "./helpers/rollout-harness.ts";

const STATEMENT = "alter table orders add column note text";

describe("plan check errors hold a task run", () => {
  const harness = new RolloutHarness("gate");
  let withTable: PgTarget;
  let withoutTable: PgTarget;

  before(async () => {
    [withTable, withoutTable] = (await harness.start(2)) as [PgTarget, PgTarget];
    await withTable!.query("create table orders (id int)");
  });
  after(() => harness.stop());

  /** A plan of STATEMENT on both targets, once its checks have finished; the target without the table fails the dry run. */
  async function checkedPlan(): Promise<string> {
    const specs = [{ changeDatabaseConfig: { targets: [withTable.resource, withoutTable.resource], statement: STATEMENT } }];
    const plan = await harness.ok("POST", `/v1/projects/${harness.project}/plans`, { title: "add note", specs });
    let results: Json[] = [];
    await eventually(async () => {
      const run = (await harness.ok("GET", `/v1/${plan.name}/planCheckRuns`)).planCheckRuns?.[0];
      results = run?.results ?? [];
      return run !== undefined && run.status !== "RUNNING";
    });
    const failed = results.filter((r) => r.status === "ERROR").map((r) => r.target);
    assert.deepEqual([...new Set(failed)], [withoutTable.resource], "only the target without the table has check errors");
    return String(plan.name).split("/").at(-1)!;
  }

  const taskOn = (rollout: Json, target: PgTarget): Json => rollout.tasks.find((t: Json) => t.target === target.resource);

  it("keeps the failing target's task PENDING with the reason, and runs the other", async () => {
    await harness.ok("PATCH", `/v1/projects/${harness.project}?updateMask=requirePlanCheckSuccess`, { requirePlanCheckSuccess: true });
    const rollout = await harness.rollout(await checkedPlan());
    assert.equal((await harness.runIn(taskOn(rollout, withTable), "DONE")).state, "DONE");
    const held = taskOn(rollout, withoutTable);
    await eventually(async () => (await harness.task(held)).waitingReason === "plan check errors");
    assert.equal((await harness.runs(held))[0]?.state, "PENDING");
  });

  it("runs both tasks when the project does not require passing checks", async () => {
    await harness.ok("PATCH", `/v1/projects/${harness.project}?updateMask=requirePlanCheckSuccess`, { requirePlanCheckSuccess: false });
    await withTable.query("drop table orders; create table orders (id int)");
    const rollout = await harness.rollout(await checkedPlan());
    assert.equal((await harness.runIn(taskOn(rollout, withTable), "DONE")).state, "DONE");
    const run = await harness.runIn(taskOn(rollout, withoutTable));
    assert.equal(run.state, "FAILED", "the target without the table fails on execution, not at the gate");
  });
});
