// Inventory: the named (prepared) statements of the hot paths. A connection
// keeps a name's statement once parsed, and pg refuses the same name for
// another text on that connection, so each name must stand for one
// statement in the source.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { serviceSources } from "./helpers/service-sources.ts";

const NAMED = [
  /sql\.prepared\(\s*"([^"]+)"/g,
  /preparedCommand\(\s*"([^"]+)"/g,
  /name:\s*"([^"]+)",\s*text:/g,
  /addKeyedJobsSelected\(\s*\w+,\s*"([^"]+)"/g,
  /statementName:\s*"([^"]+)"/g,
];

async function statementNames(): Promise<Map<string, string[]>> {
  const places = new Map<string, string[]>();
  for (const { path, text } of await serviceSources()) {
    for (const pattern of NAMED) {
      for (const match of text.matchAll(pattern)) places.set(match[1]!, [...(places.get(match[1]!) ?? []), path]);
    }
  }
  return places;
}

describe("named statements", () => {
  it("finds the claim's and the settlement's named statements", async () => {
    const names = [...(await statementNames()).keys()];
    for (const name of ["task_run.claim", "task_run.mark_ended_with_task", "run_locks.lock_pending_run", "task_run_execution.dispatch_waiting_runs", "task_run_execution.end_dispatching_target_waiters", "task.stage_goes_on"]) {
      assert.ok(names.includes(name), `${name} among ${names.join(", ")}`);
    }
  });

  it("finds the per-request reads' named statements", async () => {
    const names = [...(await statementNames()).keys()];
    for (const name of ["session_token.find", "session_token.touch", "iam_policy.find_by_scopes", "group_member.group_ids_of_user", "project.find"]) {
      assert.ok(names.includes(name), `${name} among ${names.join(", ")}`);
    }
  });

  it("gives each name to one statement", async () => {
    const reused = [...(await statementNames())].filter(([, places]) => places.length > 1);
    assert.deepEqual(reused, [], "a name named twice");
  });
});
