// What a rollout, a stage and a task allow from their states (contract
// §12.2, §12.3). The page offers only these; the server still decides, on
// the caller's permissions and on states that moved meanwhile.
import { type Rollout, Rollout_State, type Stage, Stage_State, type Task, Task_State } from "@gen/svc/v1/rollout_service_pb.js";

export interface RolloutChoices {
  pause: boolean;
  resume: boolean;
  cancel: boolean;
}

export function rolloutChoices(rollout: Pick<Rollout, "state">): RolloutChoices {
  const state = rollout.state;
  return {
    pause: state === Rollout_State.RUNNING,
    resume: state === Rollout_State.PAUSED,
    cancel: [Rollout_State.NOT_STARTED, Rollout_State.RUNNING, Rollout_State.PAUSED, Rollout_State.FAILED].includes(state),
  };
}

const PAST = [Stage_State.DONE, Stage_State.SKIPPED];

/** Advance: the stage has not started, every earlier one is done or skipped, and the rollout is neither paused nor over. */
export function canAdvance(rollout: Pick<Rollout, "state" | "stages">, stage: Stage): boolean {
  if (![Rollout_State.NOT_STARTED, Rollout_State.RUNNING, Rollout_State.FAILED].includes(rollout.state)) return false;
  const index = rollout.stages.findIndex((s) => s.name === stage.name);
  return stage.state === Stage_State.NOT_STARTED && rollout.stages.slice(0, index).every((s) => PAST.includes(s.state));
}

export interface TaskChoices {
  /** Run a task not yet started, or retry a failed or cancelled one (a new task run). */
  run: "run" | "retry" | undefined;
  skip: boolean;
  /** Cancel its pending or running run. */
  cancel: boolean;
}

export function taskChoices(rollout: Pick<Rollout, "state">, stage: Pick<Stage, "state">, task: Pick<Task, "state" | "latestTaskRun">): TaskChoices {
  const over = rollout.state === Rollout_State.DONE || rollout.state === Rollout_State.CANCELED;
  if (over) return { run: undefined, skip: false, cancel: false };
  const started = stage.state !== Stage_State.NOT_STARTED;
  const state = task.state;
  const retry = state === Task_State.FAILED || state === Task_State.CANCELED;
  return {
    run: started && retry ? "retry" : started && state === Task_State.NOT_STARTED ? "run" : undefined,
    skip: [Task_State.NOT_STARTED, Task_State.PENDING, Task_State.FAILED, Task_State.CANCELED].includes(state),
    cancel: (state === Task_State.PENDING || state === Task_State.RUNNING) && task.latestTaskRun !== "",
  };
}
