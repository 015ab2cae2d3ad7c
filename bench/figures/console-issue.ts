// The console figure's issue page (issue 28): an issue whose rollout waits in
// a prod stage (MANUAL, so no task starts on its own) with one task per
// database of DATABASES, seeded through the API; then, on the page signed in
// through the console's form:
//   issue_page_interactive — from navigation start to the page showing the
//     issue's approval status, every task's state and the Skip the user may
//     use (a MutationObserver in the page, performance.now()), the median of
//     NAVIGATIONS navigations (target ≤ 1000 ms); baseline: the same
//     navigations' DOMContentLoaded (the document and its scripts, no data);
//   task_state_shown — a task skipped through the API (BatchSkipTasks) while
//     the page follows the rollout (WatchRollout): from the call's answer
//     (the server has committed by then) to the page showing SKIPPED (a
//     MutationObserver, performance.timeOrigin + performance.now()), once per
//     task; the value is the slowest (target ≤ 1000 ms), the p50 beside it;
//     baseline: the skip call's own round trip.
import { setTimeout as sleep } from "node:timers/promises";
import type { Browser, Page } from "playwright-core";
import { adminQuery, adopt, type Api, type Json, type Login } from "../harness/api-client.ts";
import { settled } from "../harness/approvals.ts";
import { onBenchPage, signedInPage } from "../harness/browser.ts";
import { startChildProcess } from "../harness/child-server.ts";
import { percentile } from "../harness/load-result.ts";
import { userMember } from "../../shared/identity/iam/members.ts";
import { note, ratioOf, type BenchContext, type Row } from "../harness/types.ts";

const WHERE = { instance: "bench-console-prod", project: "bench-console" };
const DATABASES = 10;
const NAVIGATIONS = 7;
const INTERACTIVE_MAX_MS = 1000;
const SHOWN_MAX_MS = 1000;

interface SeededIssue {
  /** The issue page's path, e.g. /projects/p/issues/1. */
  path: string;
  rollout: string;
  tasks: string[];
  drop(): Promise<void>;
}

/** Both issue-page rows, with a worker of their own (it syncs the instance and runs the plan's checks), stopped before they return. */
export async function measureIssuePage(browser: Browser, baseUrl: string, api: Api, login: Login, context: BenchContext): Promise<Row[]> {
  const worker = await startChildProcess("worker-process.ts", { BENCH_PG_URL: context.databaseUrl }, context.cpuProfDir);
  try {
    return await issuePageRows(browser, baseUrl, api, login, context.databaseUrl);
  } finally {
    await worker.stop();
  }
}

async function issuePageRows(browser: Browser, baseUrl: string, api: Api, login: Login, databaseUrl: string): Promise<Row[]> {
  const issue = await seedIssue(api, login, databaseUrl);
  try {
    return await onBenchPage(browser, async (page) => {
      await signedInPage(page, baseUrl, issue.path, login);
      const interactive = await measureInteractive(page, `${baseUrl}${issue.path}`, issue.tasks.length);
      return [interactive, await measureStateShown(page, api, issue)];
    });
  } finally {
    await issue.drop();
  }
}

/** A project owned by the bench user (self-approval allowed), DATABASES prod databases in it, and an approved issue of `select 1` on them. */
async function seedIssue(api: Api, login: Login, databaseUrl: string): Promise<SeededIssue> {
  const names = Array.from({ length: DATABASES }, (_, i) => `svc_bench_console_${process.pid}_${i}`);
  for (const name of names) await adminQuery(databaseUrl, `create database ${name}`);
  const drop = async () => {
    for (const name of names) await adminQuery(databaseUrl, `drop database if exists ${name} with (force)`);
  };
  try {
    await api.call("POST", `/v1/projects?projectId=${WHERE.project}`, { title: "Bench console", allowSelfApproval: true });
    const policy = await api.call("GET", `/v1/projects/${WHERE.project}:getIamPolicy`);
    await api.call("POST", `/v1/projects/${WHERE.project}:setIamPolicy`, {
      policy: { etag: policy.etag, bindings: [...policy.bindings, { role: "roles/projectOwner", members: [userMember(login.loginId)] }] },
    });
    const url = new URL(databaseUrl);
    await api.call("POST", `/v1/instances?instanceId=${WHERE.instance}`, {
      engine: "POSTGRES",
      environment: "environments/prod",
      dataSources: [{ type: "ADMIN", host: url.hostname, port: url.port || "5432", username: decodeURIComponent(url.username), password: decodeURIComponent(url.password) }],
    });
    await adopt(api, databaseUrl, WHERE, names);
    const targets = names.map((name) => `instances/${WHERE.instance}/databases/${name}`);
    const plan = await api.call("POST", `/v1/projects/${WHERE.project}/plans`, { title: "Bench console", specs: [{ changeDatabaseConfig: { targets, statement: "select 1", type: "DATA" } }] });
    let issue = await settled(api, (await api.call("POST", `/v1/projects/${WHERE.project}/issues`, { plan: plan.name })).name);
    if (issue.approvalStatus === "PENDING") issue = await api.call("POST", `/v1/${issue.name}:approve`, {});
    if (!issue.rollout) throw new Error(`issue ${issue.name} has no rollout (approval ${issue.approvalStatus})`);
    const rollout = await api.call("GET", `/v1/${issue.rollout}`);
    const tasks = ((rollout.stages ?? []) as Json[]).flatMap((stage) => (stage.tasks ?? []) as Json[]);
    if (tasks.length !== DATABASES || tasks.some((task) => task.state !== "NOT_STARTED")) throw new Error(`rollout ${rollout.name}: tasks ${tasks.map((t) => t.state).join(", ")}`);
    return { path: `/${issue.name}`, rollout: rollout.name, tasks: tasks.map((task) => task.name as string), drop };
  } catch (error) {
    await drop();
    throw error;
  }
}

async function measureInteractive(page: Page, url: string, taskCount: number): Promise<Row> {
  // Runs at the start of every document of the page: notes the first moment the issue page is usable.
  await page.addInitScript((count: number) => {
    const ready = () =>
      document.querySelector('[data-testid="approval-status"]') !== null &&
      document.querySelectorAll('[data-testid="task-state"]').length === count &&
      [...document.querySelectorAll("button")].some((button) => button.textContent?.startsWith("Skip on "));
    const observer = new MutationObserver(() => {
      if (!ready()) return;
      (globalThis as any).benchInteractiveMs = performance.now();
      observer.disconnect();
    });
    observer.observe(document, { childList: true, subtree: true, characterData: true });
  }, taskCount);
  const interactive: number[] = [];
  const loaded: number[] = [];
  for (let i = 0; i < NAVIGATIONS; i++) {
    await page.goto(url);
    await page.waitForFunction(() => (globalThis as any).benchInteractiveMs !== undefined, undefined, { timeout: 30_000 });
    const timing = await page.evaluate(() => ({
      interactive: (globalThis as any).benchInteractiveMs as number,
      loaded: (performance.getEntriesByType("navigation")[0] as PerformanceNavigationTiming).domContentLoadedEventEnd,
    }));
    interactive.push(timing.interactive);
    loaded.push(timing.loaded);
  }
  const value = median(interactive);
  const baseline = median(loaded);
  note(`issue page interactive after ${interactive.map(round).join(", ")} ms (DOMContentLoaded ${loaded.map(round).join(", ")} ms)`);
  return {
    name: "console.issue_page_interactive",
    value: round(value),
    unit: "ms",
    baseline: round(baseline),
    ratio: ratioOf(baseline, value),
    targets: [{ on: "value", max: INTERACTIVE_MAX_MS }],
    detail: { note: `median of ${NAVIGATIONS} navigations (first ${round(interactive[0]!)} ms, slowest ${round(Math.max(...interactive))} ms), ${taskCount} tasks; baseline: DOMContentLoaded` },
  };
}

async function measureStateShown(page: Page, api: Api, issue: SeededIssue): Promise<Row> {
  const shown: number[] = [];
  const roundTrips: number[] = [];
  for (const task of issue.tasks) {
    // A pause first: the page's watch of the rollout is open well before the change.
    await sleep(300);
    await page.evaluate((name: string) => {
      const badge = () => document.querySelector(`tr[data-task="${CSS.escape(name)}"] [data-testid="task-state"]`);
      const observer = new MutationObserver(() => {
        if (badge()?.textContent?.trim() !== "SKIPPED") return;
        (globalThis as any).benchShownAt = performance.timeOrigin + performance.now();
        observer.disconnect();
      });
      (globalThis as any).benchShownAt = undefined;
      observer.observe(document, { childList: true, subtree: true, characterData: true });
    }, task);
    const sent = performance.timeOrigin + performance.now();
    await api.call("POST", `/v1/${issue.rollout}/tasks:batchSkip`, { tasks: [task], reason: "bench" });
    const committed = performance.timeOrigin + performance.now();
    const shownAt = (await (await page.waitForFunction(() => (globalThis as any).benchShownAt, undefined, { timeout: 30_000 })).jsonValue()) as number;
    shown.push(shownAt - committed);
    roundTrips.push(committed - sent);
  }
  const slowest = Math.max(...shown);
  const p50 = median(shown);
  const baseline = median(roundTrips);
  note(`task state shown after ${shown.map(round).join(", ")} ms (skip calls ${roundTrips.map(round).join(", ")} ms)`);
  return {
    name: "console.task_state_shown",
    value: round(slowest),
    unit: "ms",
    baseline: round(baseline),
    ratio: ratioOf(baseline, slowest),
    targets: [{ on: "value", max: SHOWN_MAX_MS }],
    detail: { p50Ms: round(p50), note: `slowest of ${shown.length} skips, p50 ${round(p50)} ms; baseline: the skip call's round trip (p50)` },
  };
}

function median(values: readonly number[]): number {
  return percentile(Float64Array.from(values).sort(), 50);
}

export function round(ms: number): number {
  return Math.round(ms * 10) / 10;
}
