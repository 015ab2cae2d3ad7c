// A task's runs, newest first (contract §12.1), and the per-statement log of
// the chosen one: each statement, its rows, its time and the database's
// error. Read again when the task's state or newest run changes.
import { RolloutService, type Task, type TaskRun, TaskRun_State } from "@gen/svc/v1/rollout_service_pb.js";
import { useId, useState } from "react";
import { client } from "../../api/clients.ts";
import { FormError } from "../../components/alert.tsx";
import { ListTable } from "../../components/list-table.tsx";
import { Loading } from "../../components/loading.tsx";
import { TimeText } from "../../components/time-text.tsx";
import { useLoad } from "../../hooks/use-load.ts";
import { lastSegment, userLabel } from "../issues/issue-address.ts";

export function TaskRuns({ task }: { task: Task }) {
  const runs = useLoad(async (signal) => (await client(RolloutService).listTaskRuns({ parent: task.name, pageSize: 20 }, { signal })).taskRuns, [task.name, task.state, task.latestTaskRun]);
  const [chosen, setChosen] = useState<string>();
  const id = useId();
  if (runs.status === "loading" && !chosen) return <Loading label="Reading the task's runs…" />;
  if (runs.status === "failed") return <FormError message={runs.message} />;
  if (runs.status !== "done" || runs.value.length === 0) return <p className="empty">The task has not run yet.</p>;
  const run = runs.value.find((r) => r.name === chosen) ?? runs.value[0]!;
  return (
    <div className="task-runs">
      {runs.value.length > 1 && (
        <div className="field inline">
          <label htmlFor={id}>Run</label>
          <select id={id} value={run.name} onChange={(event) => setChosen(event.target.value)}>
            {runs.value.map((r) => (
              <option key={r.name} value={r.name}>
                #{lastSegment(r.name)} · {TaskRun_State[r.state]}
              </option>
            ))}
          </select>
        </div>
      )}
      <RunSummary run={run} />
      <RunLog run={run} />
    </div>
  );
}

function RunSummary({ run }: { run: TaskRun }) {
  return (
    <p className="run-summary">
      Run #{lastSegment(run.name)} <span className={`badge state-${TaskRun_State[run.state].toLowerCase()}`}>{TaskRun_State[run.state]}</span> by {userLabel(run.creator)}, started{" "}
      <TimeText time={run.startTime} />, ended <TimeText time={run.endTime} />; {String(run.affectedRows)} rows affected.
      {run.detail && <span> {run.detail}</span>}
      {run.error && <span className="run-error"> {run.error}</span>}
    </p>
  );
}

function RunLog({ run }: { run: TaskRun }) {
  const log = useLoad(async (signal) => (await client(RolloutService).getTaskRunLog({ name: `${run.name}/log` }, { signal })).entries, [run.name, run.state]);
  if (log.status === "loading") return <Loading label="Reading the log…" />;
  if (log.status === "failed") return <FormError message={log.message} />;
  if (log.value.length === 0) return <p className="empty">No statement has run.</p>;
  return (
    <ListTable columns={["Time", "Statement", "Rows", "Duration", "Error"]}>
      {log.value.map((entry, index) => (
        <tr key={index}>
          <td>
            <TimeText time={entry.time} />
          </td>
          <td>
            <code className="log-statement">{entry.statement}</code>
          </td>
          <td>{String(entry.rowsAffected)}</td>
          <td>{entry.durationMs.toFixed(1)} ms</td>
          <td className="run-error">{entry.error}</td>
        </tr>
      ))}
    </ListTable>
  );
}
