// "Run as change" (SQLService Execute, contract §14.1, §14.3): the SQL
// Editor's only write, offered to holders of bb.sql.admin while the
// workspace is in EDITOR mode, after a confirmation showing what will run
// and where. In PIPELINE mode the holder is told why it is not offered.
import { useState } from "react";
import { ConfirmStep } from "../../components/confirm-step.tsx";
import type { DatabaseChangeMode } from "./change-mode.ts";

interface ExecuteActionProps {
  mode: DatabaseChangeMode | undefined;
  /** The chosen database's name, as the confirmation shows it. */
  database: string;
  running: boolean;
  /** The statements to run: the selection, else the statement under the cursor. */
  statement(): string;
  /** Says what is missing instead of asking (no statement). */
  onMissing(): void;
  onExecute(statement: string): void;
}

export function ExecuteAction({ mode, database, running, statement, onMissing, onExecute }: ExecuteActionProps) {
  const [asking, setAsking] = useState<string>();
  if (mode === undefined) return null;
  if (mode === "PIPELINE") {
    return <p className="hint">Run as change is not offered: the workspace makes database changes through issues (database change mode PIPELINE).</p>;
  }
  if (asking !== undefined) {
    return (
      <ConfirmStep confirm="Run as change" pending={running} onConfirm={() => (setAsking(undefined), onExecute(asking))} onClose={() => setAsking(undefined)}>
        Write to {database} now, outside any issue? <code className="result-statement">{asking}</code>
      </ConfirmStep>
    );
  }
  const ask = () => {
    const text = statement();
    if (text) setAsking(text);
    else onMissing();
  };
  return (
    <div className="toolbar-group">
      <button type="button" className="button danger" onClick={ask} disabled={running}>
        Run as change…
      </button>
    </div>
  );
}
