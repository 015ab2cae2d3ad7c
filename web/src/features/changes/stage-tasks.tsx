// A stage's tasks: the database, the kind of change, the state with why it
// waits or was skipped, the actions its state allows, and its runs' log.
import { type Rollout, RolloutService, type Stage, type Task, Task_State, Task_Type } from "@gen/svc/v1/rollout_service_pb.js";
import { Fragment, useState } from "react";
import { client } from "../../api/clients.ts";
import { FormError } from "../../components/alert.tsx";
import { ListTable } from "../../components/list-table.tsx";
import { useAction } from "../../hooks/use-action.ts";
import { ReasonForm } from "./reason-form.tsx";
import { taskChoices } from "./rollout-actions.ts";
import { TaskRuns } from "./task-runs.tsx";

const TYPE_TEXT: Record<Task_Type, string> = {
  [Task_Type.TYPE_UNSPECIFIED]: "Change",
  [Task_Type.DATABASE_MIGRATE]: "Schema change",
  [Task_Type.DATABASE_DATA_UPDATE]: "Data change",
};

export function StageTasks({ rollout, stage, mayRunTasks }: { rollout: Rollout; stage: Stage; mayRunTasks: boolean }) {
  const [open, setOpen] = useState<string>();
  return (
    <ListTable columns={["Database", "Change", "State", "Actions"]}>
      {stage.tasks.map((task) => (
        <Fragment key={task.name}>
          <tr data-task={task.name}>
            <td>{task.target.replace(/^instances\//, "").replace("/databases/", " / ")}</td>
            <td>{TYPE_TEXT[task.type]}</td>
            <td>
              <TaskState task={task} />
            </td>
            <td>
              <TaskButtons rollout={rollout} stage={stage} task={task} mayRun={mayRunTasks} logOpen={open === task.name} onLog={() => setOpen(open === task.name ? undefined : task.name)} />
            </td>
          </tr>
          {open === task.name && (
            <tr className="task-runs-row">
              <td colSpan={4}>
                <TaskRuns task={task} />
              </td>
            </tr>
          )}
        </Fragment>
      ))}
    </ListTable>
  );
}

function TaskState({ task }: { task: Task }) {
  const state = Task_State[task.state];
  const why = task.waitingReason || task.skippedReason;
  return (
    <>
      <span className={`badge state-${state.toLowerCase()}`} data-testid="task-state">
        {state}
      </span>
      {why && <span className="task-why"> {why}</span>}
    </>
  );
}

function TaskButtons({ rollout, stage, task, mayRun, logOpen, onLog }: { rollout: Rollout; stage: Stage; task: Task; mayRun: boolean; logOpen: boolean; onLog(): void }) {
  const rollouts = client(RolloutService);
  const action = useAction();
  const [skipping, setSkipping] = useState(false);
  const choices = mayRun ? taskChoices(rollout, stage, task) : { run: undefined, skip: false, cancel: false };
  const target = task.target;
  if (skipping) {
    const skip = async (reason: string) => (await action.run(() => rollouts.batchSkipTasks({ parent: rollout.name, tasks: [task.name], reason }))) && setSkipping(false);
    return (
      <>
        <ReasonForm label={`Why skip the change on ${target}?`} confirm="Skip" pending={action.pending} onConfirm={(reason) => void skip(reason)} onClose={() => setSkipping(false)} />
        <FormError message={action.error} />
      </>
    );
  }
  return (
    <>
      <div className="actions">
        {choices.run && (
          <button type="button" className="button" disabled={action.pending} onClick={() => void action.run(() => rollouts.batchRunTasks({ parent: rollout.name, tasks: [task.name] }))}>
            {choices.run === "retry" ? "Retry" : "Run"}
            <OnTarget target={target} />
          </button>
        )}
        {choices.cancel && (
          <button
            type="button"
            className="button"
            disabled={action.pending}
            onClick={() => void action.run(() => rollouts.batchCancelTaskRuns({ parent: task.name, taskRuns: [task.latestTaskRun], reason: "" }))}
          >
            Cancel run
            <OnTarget target={target} />
          </button>
        )}
        {choices.skip && (
          <button type="button" className="button" disabled={action.pending} onClick={() => setSkipping(true)}>
            Skip
            <OnTarget target={target} />…
          </button>
        )}
        {task.latestTaskRun && (
          <button type="button" className="button" aria-expanded={logOpen} onClick={onLog}>
            {logOpen ? "Hide log" : "Log"}
            <OnTarget target={target} />
          </button>
        )}
      </div>
      <FormError message={action.error} />
    </>
  );
}

/** Names the task's database to assistive technology, so that each row's buttons differ. */
function OnTarget({ target }: { target: string }) {
  return <span className="visually-hidden"> on {target}</span>;
}
