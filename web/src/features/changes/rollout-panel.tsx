// An issue's rollout, live (contract §12): the rollout's state and actions,
// then each stage with its tasks, as WatchRollout streams them — every state
// change shows without a reload or a poll.
import { type Rollout, Rollout_State, RolloutService, type Stage, Stage_State } from "@gen/svc/v1/rollout_service_pb.js";
import { useState } from "react";
import { client } from "../../api/clients.ts";
import { Alert, FormError } from "../../components/alert.tsx";
import { Loading } from "../../components/loading.tsx";
import { type Action, useAction } from "../../hooks/use-action.ts";
import { useWatch } from "../../hooks/use-watch.ts";
import { usePermissions } from "../iam/use-permissions.ts";
import { lastSegment } from "../issues/issue-address.ts";
import { ReasonForm } from "./reason-form.tsx";
import { canAdvance, rolloutChoices } from "./rollout-actions.ts";
import { StageTasks } from "./stage-tasks.tsx";

/** Advance, pause, resume and cancel; run, retry, skip and cancel task runs (§12.3). */
const ROLLOUT_PERMISSIONS = ["bb.rollouts.update", "bb.taskRuns.create"] as const;

export function RolloutPanel({ rolloutName }: { rolloutName: string }) {
  const rollouts = client(RolloutService);
  const watched = useWatch<Rollout>(
    (signal) => mapStream(rollouts.watchRollout({ name: rolloutName }, { signal }), (reply) => reply.rollout),
    (signal) => rollouts.getRollout({ name: rolloutName }, { signal }),
    [rolloutName],
  );
  const action = useAction();
  const may = usePermissions(rolloutName.split("/rollouts/")[0]!, ROLLOUT_PERMISSIONS);
  const rollout = watched.value;
  if (!rollout) return watched.error ? <FormError message={watched.error} /> : <Loading label="Connecting to the rollout…" />;
  return (
    <div className="rollout" data-live={watched.live}>
      <div className="rollout-head">
        <p>
          Rollout <span className={`badge state-${Rollout_State[rollout.state].toLowerCase()}`} data-testid="rollout-state">{Rollout_State[rollout.state]}</span>
        </p>
        {may.can("bb.rollouts.update") && <RolloutButtons rollout={rollout} action={action} />}
      </div>
      {!watched.live && <Alert tone="warning">{watched.error ?? "The live updates stopped; reconnecting…"}</Alert>}
      <FormError message={action.error} />
      {rollout.stages.map((stage) => (
        <section key={stage.name} className="stage" aria-label={`Stage ${stageTitle(stage)}`}>
          <div className="stage-head">
            <h3>{stageTitle(stage)}</h3>
            <span className={`badge state-${Stage_State[stage.state].toLowerCase()}`}>{Stage_State[stage.state]}</span>
            {may.can("bb.rollouts.update") && canAdvance(rollout, stage) && (
              <button type="button" className="button primary" disabled={action.pending} onClick={() => void action.run(() => rollouts.advanceRollout({ name: rollout.name, stage: stage.name }))}>
                Start {stageTitle(stage)}
              </button>
            )}
          </div>
          <StageTasks rollout={rollout} stage={stage} mayRunTasks={may.can("bb.taskRuns.create")} />
        </section>
      ))}
    </div>
  );
}

function stageTitle(stage: Stage): string {
  const environment = lastSegment(stage.environment);
  return environment === "-" ? "no environment" : environment;
}

function RolloutButtons({ rollout, action }: { rollout: Rollout; action: Action }) {
  const rollouts = client(RolloutService);
  const [cancelling, setCancelling] = useState(false);
  const choices = rolloutChoices(rollout);
  if (cancelling) {
    const cancel = async (reason: string) => (await action.run(() => rollouts.cancelRollout({ name: rollout.name, reason }))) && setCancelling(false);
    return <ReasonForm label="Why cancel the rollout?" confirm="Cancel the rollout" pending={action.pending} onConfirm={(reason) => void cancel(reason)} onClose={() => setCancelling(false)} />;
  }
  return (
    <div className="actions">
      {choices.pause && (
        <button type="button" className="button" disabled={action.pending} onClick={() => void action.run(() => rollouts.pauseRollout({ name: rollout.name }))}>
          Pause
        </button>
      )}
      {choices.resume && (
        <button type="button" className="button primary" disabled={action.pending} onClick={() => void action.run(() => rollouts.resumeRollout({ name: rollout.name }))}>
          Resume
        </button>
      )}
      {choices.cancel && (
        <button type="button" className="button danger" disabled={action.pending} onClick={() => setCancelling(true)}>
          Cancel rollout…
        </button>
      )}
    </div>
  );
}

/** The stream's messages mapped; a heartbeat (no resource) maps to undefined. */
export async function* mapStream<R, T>(stream: AsyncIterable<R>, pick: (reply: R) => T | undefined): AsyncIterable<T | undefined> {
  for await (const reply of stream) yield pick(reply);
}
