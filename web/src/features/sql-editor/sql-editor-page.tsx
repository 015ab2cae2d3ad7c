// The SQL Editor (contract §14, §19.1, §19.2): a database, statements in a
// CodeMirror field, and read calls on them — Query (one result per
// statement), Explain (the plan, analyzed on request) and Export (a file in
// each format) — and, in EDITOR mode, Execute (writes); the user's history on
// that database beside them. Only the calls the user's permissions on the
// database allow are offered.
import { Engine } from "@gen/svc/v1/instance_service_pb.js";
import type { Database } from "@gen/svc/v1/database_service_pb.js";
import { ExportRequest_Format, SQLService } from "@gen/svc/v1/sql_service_pb.js";
import { useId, useRef, useState } from "react";
import { client } from "../../api/clients.ts";
import { SqlEditorField, type SqlEditorHandle } from "../../components/sql-editor-field/sql-editor-field.tsx";
import { useDocumentTitle } from "../../hooks/use-document-title.ts";
import { usePermissions, WORKSPACE } from "../iam/use-permissions.ts";
import "../../styles/sql-editor.css";
import { useDatabaseChangeMode } from "./change-mode.ts";
import { DatabasePicker } from "./database-picker.tsx";
import { ExecuteAction } from "./execute-action.tsx";
import { downloadExport } from "./export-file.ts";
import type { Outcome } from "./outcome.ts";
import { shownResult } from "./packed-rows.ts";
import { QueryHistoryList } from "./query-history.tsx";
import { SqlOutput } from "./sql-output.tsx";
import { SQL_PERMISSIONS } from "./sql-permissions.ts";
import { type Call, useSqlCall } from "./use-sql-call.ts";

const DEFAULT_LIMIT = 1000;
const MAX_LIMIT = 100_000;
const FORMATS = ["CSV", "JSON", "SQL", "XLSX"] as const;

export function SqlEditorPage() {
  useDocumentTitle("SQL Editor");
  const headingId = useId();
  const limitId = useId();
  const formatId = useId();
  const editor = useRef<SqlEditorHandle>(null);
  const [database, setDatabase] = useState<Database>();
  const [limit, setLimit] = useState(DEFAULT_LIMIT);
  const [analyze, setAnalyze] = useState(false);
  const [format, setFormat] = useState<(typeof FORMATS)[number]>("CSV");
  const [historyRound, setHistoryRound] = useState(0);
  const sqlCall = useSqlCall<Outcome>();
  const running = sqlCall.state.status === "running";
  const permissions = usePermissions(database?.name ?? WORKSPACE, SQL_PERMISSIONS);
  const can = (permission: (typeof SQL_PERMISSIONS)[number]) => Boolean(database) && permissions.ready && permissions.can(permission);
  const changeMode = useDatabaseChangeMode(can("bb.sql.admin"));

  const runnable = () => editor.current?.runnable() ?? "";
  const noStatement = () => sqlCall.fail("Write a statement first: the selection, else the statement under the cursor, is run.");
  /** Starts `call` on `statement` (by default the editor's runnable text), or says what is missing. */
  const begin = (call: Call, run: (name: string, statement: string, signal: AbortSignal) => Promise<Outcome>, statement = runnable()) => {
    if (!database) return sqlCall.fail("Choose a database first.");
    if (!statement) return noStatement();
    sqlCall.start(call, async (signal) => {
      try {
        return await run(database.name, statement, signal);
      } finally {
        if (call !== "explain") setHistoryRound((r) => r + 1);
      }
    });
  };
  const runQuery = () =>
    begin("query", async (name, statement, signal) => {
      const reply = await client(SQLService).query({ name, statement, limit }, { signal });
      return { kind: "query", results: reply.results.map(shownResult) };
    });
  const runExplain = () =>
    begin("explain", async (name, statement, signal) => {
      const analyzed = analyze && can("bb.sql.select");
      const reply = await client(SQLService).explain({ name, statement, analyze: analyzed }, { signal });
      return { kind: "explain", plan: reply.plan, analyze: analyzed };
    });
  const runExport = () =>
    begin("export", async (name, statement, signal) => ({
      kind: "export",
      file: await downloadExport({ name, statement, format: ExportRequest_Format[format] }, signal),
    }));
  const runExecute = (statement: string) =>
    begin(
      "execute",
      async (name, text, signal) => {
        const reply = await client(SQLService).execute({ name, statement: text }, { signal });
        return { kind: "execute", statements: reply.statements };
      },
      statement,
    );

  return (
    <section aria-labelledby={headingId} className="page sql-editor-page">
      <div className="page-head">
        <h1 id={headingId}>SQL Editor</h1>
      </div>
      <div className="sql-layout">
        <div className="sql-work">
          <DatabasePicker value={database} onChange={setDatabase} />
          <SqlEditorField
            label="SQL statements"
            dialect={database?.engine === Engine.MYSQL ? "mysql" : "postgres"}
            placeholder="select * from …"
            onRun={can("bb.sql.select") ? runQuery : undefined}
            handle={editor}
          />
          <p className="hint">
            {database ? "Ctrl+Enter (⌘+Enter on a Mac) runs the selection, else the statement under the cursor." : "Choose a database to run statements on."} Tab leaves the
            editor.
          </p>
          <div className="sql-toolbar">
            {can("bb.sql.select") && (
              <div className="toolbar-group">
                <button type="button" className="button primary" onClick={runQuery} disabled={running}>
                  Run
                </button>
                <label htmlFor={limitId}>Row limit</label>
                <input id={limitId} type="number" min={1} max={MAX_LIMIT} value={limit} onChange={(e) => setLimit(clampLimit(e.target.valueAsNumber))} className="limit-input" />
              </div>
            )}
            {can("bb.sql.explain") && (
              <div className="toolbar-group">
                <button type="button" className="button" onClick={runExplain} disabled={running}>
                  Explain
                </button>
                {can("bb.sql.select") && (
                  <label className="check-inline">
                    <input type="checkbox" checked={analyze} onChange={(e) => setAnalyze(e.target.checked)} />
                    Analyze (runs the statement, rolled back)
                  </label>
                )}
              </div>
            )}
            {can("bb.sql.export") && (
              <div className="toolbar-group">
                <label htmlFor={formatId}>Export format</label>
                <select id={formatId} value={format} onChange={(e) => setFormat(e.target.value as (typeof FORMATS)[number])}>
                  {FORMATS.map((f) => (
                    <option key={f}>{f}</option>
                  ))}
                </select>
                <button type="button" className="button" onClick={runExport} disabled={running}>
                  Export
                </button>
              </div>
            )}
            {database && can("bb.sql.admin") && (
              <ExecuteAction mode={changeMode} database={database.name} running={running} statement={runnable} onMissing={noStatement} onExecute={runExecute} />
            )}
            {running && (
              <button type="button" className="button" onClick={sqlCall.cancel}>
                Cancel
              </button>
            )}
          </div>
          <SqlOutput state={sqlCall.state} />
        </div>
        <QueryHistoryList database={database?.name} round={historyRound} onPick={(statement) => editor.current?.setText(statement)} />
      </div>
    </section>
  );
}

function clampLimit(value: number): number {
  return Number.isFinite(value) ? Math.min(MAX_LIMIT, Math.max(1, Math.trunc(value))) : DEFAULT_LIMIT;
}
