// A new change (contract §10, §11): its title and description, the target
// databases of the project, the kind of change and its SQL in the SQL field
// (keywords, tables and columns completed from the first target's synced
// schema). "Check" saves the plan and shows its check results, those with a
// position marked in the field; "Create the issue" saves it if needed and
// opens the new issue's page.
import { type Database, DatabaseService } from "@gen/svc/v1/database_service_pb.js";
import { Engine } from "@gen/svc/v1/instance_service_pb.js";
import { Issue_Type, IssueService } from "@gen/svc/v1/issue_service_pb.js";
import { type Plan, Plan_ChangeDatabaseConfig_Type } from "@gen/svc/v1/plan_service_pb.js";
import { type PlanCheckRun, PlanCheckRun_Status } from "@gen/svc/v1/plan_check_run_service_pb.js";
import { useId, useMemo, useRef, useState } from "react";
import { Link, useLocation, useParams } from "wouter";
import { client } from "../../api/clients.ts";
import { FormError } from "../../components/alert.tsx";
import { Field } from "../../components/field.tsx";
import { Loading } from "../../components/loading.tsx";
import { SqlEditorField } from "../../components/sql-editor-field/sql-editor-field.tsx";
import { useAction } from "../../hooks/use-action.ts";
import { useDocumentTitle } from "../../hooks/use-document-title.ts";
import { useLoad } from "../../hooks/use-load.ts";
import { issuePagePath } from "../issues/issue-address.ts";
import { issuesPath } from "../issues/issue-views.ts";
import { checkMarks } from "./check-marks.ts";
import { CheckResults } from "./check-results.tsx";
import { CHANGE_TYPES, type Draft, finishedChecks, marksOf, savePlan } from "./plan-draft.ts";
import { schemaCompletion } from "./schema-completion.ts";
import { databaseTitle, projectDatabases, TargetPicker } from "./target-picker.tsx";

interface Checked {
  run: PlanCheckRun | undefined;
  /** What was checked, so that a later edit shows the results as out of date. */
  statement: string;
}

export default function NewChangePage() {
  const project = useParams<{ project: string }>().project ?? "";
  useDocumentTitle(`New change · ${project}`);
  const [, navigate] = useLocation();
  const databases = useLoad((signal) => projectDatabases(project, signal), [project]);
  const [draft, setDraft] = useState<Draft>({ title: "", description: "", statement: "", targets: [], type: Plan_ChangeDatabaseConfig_Type.MIGRATE });
  const edit = (change: Partial<Draft>) => setDraft((d) => ({ ...d, ...change }));
  const [saved, setSaved] = useState<Plan>();
  const [checked, setChecked] = useState<Checked>();
  const requestIds = useRef({ plan: crypto.randomUUID(), issue: crypto.randomUUID() });
  const action = useAction();
  const typeId = useId();
  const descriptionId = useId();

  const first = databases.status === "done" ? databases.value.find((d) => d.name === draft.targets[0]) : undefined;
  const dialect = first?.engine === Engine.MYSQL ? "mysql" : "postgres";
  const metadata = useLoad(async (signal) => (first ? client(DatabaseService).getDatabaseMetadata({ name: `${first.name}/metadata` }, { signal }) : undefined), [first?.name]);
  const current = checked && checked.statement === draft.statement ? checked : undefined;
  const titleOf = (target: string) => (databases.status === "done" ? databases.value.find((d) => d.name === target) : undefined) ?? { name: target };
  const extensions = useMemo(
    () => [schemaCompletion(dialect, metadata.status === "done" ? metadata.value : undefined), checkMarks(marksOf(current?.run, (t) => databaseTitle(titleOf(t))))],
    [dialect, metadata, current],
  );

  // The draft as last saved: an unchanged draft is not saved again (which would start another check run).
  const savedDraft = useRef("");
  const save = async () => {
    const snapshot = JSON.stringify(draft);
    if (saved && savedDraft.current === snapshot) return saved;
    const plan = await savePlan(project, draft, saved, requestIds.current.plan);
    savedDraft.current = snapshot;
    setSaved(plan);
    return plan;
  };
  const check = () =>
    action.run(async () => {
      const plan = await save();
      setChecked({ run: undefined, statement: draft.statement });
      const run = await finishedChecks(plan.name, AbortSignal.timeout(11 * 60_000));
      setChecked({ run, statement: draft.statement });
    });
  const createIssue = () =>
    action.run(async () => {
      const plan = await save();
      const issue = await client(IssueService).createIssue({
        parent: `projects/${project}`,
        issue: { title: draft.title, description: draft.description, plan: plan.name, type: Issue_Type.DATABASE_CHANGE },
        requestId: requestIds.current.issue,
      });
      navigate(issuePagePath(issue.name));
    });
  const ready = draft.title.trim() !== "" && draft.statement.trim() !== "" && draft.targets.length > 0;

  return (
    <section className="page new-change" aria-labelledby="new-change-heading">
      <div className="page-head">
        <h1 id="new-change-heading">
          New change <span className="subtitle">in project {project}</span>
        </h1>
        <Link href={issuesPath({ view: "all", project })}>The project's issues</Link>
      </div>
      <form onSubmit={(event) => (event.preventDefault(), void createIssue())} className="panel">
        <Field label="Title" name="title" value={draft.title} onChange={(event) => edit({ title: event.target.value })} required maxLength={200} />
        <div className="field">
          <label htmlFor={descriptionId}>Description</label>
          <textarea id={descriptionId} rows={2} value={draft.description} onChange={(event) => edit({ description: event.target.value })} />
        </div>
        <TargetPicker databases={databases} chosen={draft.targets} onChange={(targets) => edit({ targets })} />
        <div className="field">
          <label htmlFor={typeId}>Kind of change</label>
          <select id={typeId} value={draft.type} onChange={(event) => edit({ type: Number(event.target.value) as Plan_ChangeDatabaseConfig_Type })}>
            {CHANGE_TYPES.map((t) => (
              <option key={t.type} value={t.type}>
                {t.label}
              </option>
            ))}
          </select>
        </div>
        <SqlEditorField label="SQL statement" dialect={dialect} placeholder="create table …" onChange={(statement) => edit({ statement })} onRun={() => void check()} extensions={extensions} />
        <CheckSummary checked={checked} current={current !== undefined} checking={action.pending && checked?.run === undefined && checked !== undefined} targets={draft.targets} titleOf={titleOf} />
        <FormError message={action.error} />
        <div className="actions">
          <button type="button" className="button" disabled={!ready || action.pending} onClick={() => void check()}>
            Check
          </button>
          <button type="submit" className="button primary" disabled={!ready || action.pending}>
            Create the issue
          </button>
        </div>
      </form>
    </section>
  );
}

function CheckSummary({ checked, current, checking, targets, titleOf }: { checked: Checked | undefined; current: boolean; checking: boolean; targets: string[]; titleOf(target: string): Pick<Database, "name"> }) {
  if (!checked) return <p className="hint">Check runs the review rules, a summary and a dry run on every target (Ctrl+Enter in the field).</p>;
  if (checking) return <Loading label="Checking the plan…" />;
  const run = checked.run;
  if (!run) return <p className="empty">The plan has no check run.</p>;
  return (
    <div className="checked" aria-live="polite">
      {!current && <p className="hint">The statement changed since this check.</p>}
      {run.status !== PlanCheckRun_Status.DONE && <FormError message={run.error || `The check run ended ${PlanCheckRun_Status[run.status]}.`} />}
      {targets.map((target) => (
        <section key={target} aria-label={`Checks on ${databaseTitle(titleOf(target))}`}>
          <h3 className="target-name">{databaseTitle(titleOf(target))}</h3>
          <CheckResults results={run.results.filter((r) => r.target === target)} />
        </section>
      ))}
    </div>
  );
}
