import { create } from "@bufbuild/protobuf";
import { Rollout_State, RolloutSchema, Stage_State, StageSchema, Task_State } from "@gen/svc/v1/rollout_service_pb.js";
import { describe, expect, it } from "vitest";
import { canAdvance, rolloutChoices, taskChoices } from "./rollout-actions.ts";

const stage = (id: string, state: Stage_State) => create(StageSchema, { name: `projects/p/rollouts/1/stages/${id}`, state });

describe("rollout actions", () => {
  it("pauses a running rollout, resumes a paused one, cancels any not over", () => {
    expect(rolloutChoices({ state: Rollout_State.RUNNING })).toEqual({ pause: true, resume: false, cancel: true });
    expect(rolloutChoices({ state: Rollout_State.PAUSED })).toEqual({ pause: false, resume: true, cancel: true });
    expect(rolloutChoices({ state: Rollout_State.DONE })).toEqual({ pause: false, resume: false, cancel: false });
    expect(rolloutChoices({ state: Rollout_State.CANCELED }).cancel).toBe(false);
  });

  it("starts a stage only after every earlier one is done or skipped, and not while paused", () => {
    const test = stage("test", Stage_State.SKIPPED);
    const staging = stage("staging", Stage_State.NOT_STARTED);
    const prod = stage("prod", Stage_State.NOT_STARTED);
    const rollout = create(RolloutSchema, { state: Rollout_State.RUNNING, stages: [test, staging, prod] });
    expect(canAdvance(rollout, staging)).toBe(true);
    expect(canAdvance(rollout, prod)).toBe(false);
    expect(canAdvance(rollout, test)).toBe(false);
    expect(canAdvance({ ...rollout, state: Rollout_State.PAUSED }, staging)).toBe(false);
  });

  it("runs a task of a started stage, retries a failed one, skips what has not succeeded and cancels a pending or running run", () => {
    const running = { state: Rollout_State.RUNNING };
    const started = { state: Stage_State.RUNNING };
    expect(taskChoices(running, started, { state: Task_State.NOT_STARTED, latestTaskRun: "" })).toEqual({ run: "run", skip: true, cancel: false });
    expect(taskChoices(running, { state: Stage_State.NOT_STARTED }, { state: Task_State.NOT_STARTED, latestTaskRun: "" }).run).toBeUndefined();
    expect(taskChoices(running, started, { state: Task_State.FAILED, latestTaskRun: "r" })).toEqual({ run: "retry", skip: true, cancel: false });
    expect(taskChoices(running, started, { state: Task_State.RUNNING, latestTaskRun: "r" })).toEqual({ run: undefined, skip: false, cancel: true });
    expect(taskChoices(running, started, { state: Task_State.DONE, latestTaskRun: "r" })).toEqual({ run: undefined, skip: false, cancel: false });
    expect(taskChoices({ state: Rollout_State.CANCELED }, started, { state: Task_State.CANCELED, latestTaskRun: "r" })).toEqual({ run: undefined, skip: false, cancel: false });
  });
});
