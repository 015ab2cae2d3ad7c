// The web console (issue 28) in headless Chromium against the real server
// serving the built console (npm run build:web):
//   sign_in_js — the JavaScript the sign-in page loads, measured from the
//     served page: the sum of its files' gzip sizes (level 9), in kB of 1,000
//     bytes (target ≤ 250; baseline: the same files uncompressed);
//   result_scroll_longest_task — the SQL Editor's grid holding a real
//     Query's 100,000 rows (limit 100000, 6 columns, sql-target.ts) scrolled
//     by a script, a fling to the end in 300 frames then 200 frames back a
//     few rows at a time: the longest task a PerformanceObserver of long
//     tasks saw, in ms (0 when none passed 50 ms; target ≤ 50), against the
//     same scroll over the first 1,000 rows of the same statement;
//   issue_page_interactive and task_state_shown — the issue page
//     (console-issue.ts), with a worker running for them only.
import type { Browser, Page } from "playwright-core";
import { apiClient, createWorkspaceAdmin } from "../harness/api-client.ts";
import { assertConsoleBuilt, launchChromium, onBenchPage, scriptWeight, signedInPage, type TaskWatch, watchTasks } from "../harness/browser.ts";
import { startChildServer } from "../harness/child-server.ts";
import { note, ratioOf, type BenchContext, type Figure, type Row } from "../harness/types.ts";
import { measureIssuePage, round } from "./console-issue.ts";
import { createSqlTarget, TABLE } from "./sql-target.ts";

const LOGIN = { loginId: "bench-console", password: "Bench-Console-Pass-1" };
const ROWS = 100_000;
const BASELINE_ROWS = 1_000;
const STATEMENT = `select * from ${TABLE} order by id`;
const SIGN_IN_JS_MAX_KB = 250;
const LONGEST_TASK_MAX_MS = 50;

export const consoleFigure: Figure = {
  name: "console",
  description: "web console in headless Chromium: the sign-in page's JavaScript (gzip kB), the longest task while the SQL Editor's grid scrolls through a 100,000-row Query result, the issue page's time to interactive and a task's state change shown live",
  async run(context: BenchContext): Promise<Row[]> {
    assertConsoleBuilt();
    await createWorkspaceAdmin(context.databaseUrl, LOGIN);
    const server = await startChildServer("server-process.ts", { BENCH_PG_URL: context.databaseUrl, BENCH_SERVER_FLAGS: "--rate-limit-per-user 0" }, context.cpuProfDir);
    const browser = await launchChromium();
    try {
      const baseUrl = `http://127.0.0.1:${server.port}`;
      const signIn = await measureSignInScripts(browser, baseUrl);
      const api = await apiClient(server.port, LOGIN);
      const target = await createSqlTarget(context.databaseUrl, api, ROWS, "console");
      try {
        return [signIn, await measureResultScroll(browser, baseUrl, target.name), ...(await measureIssuePage(browser, baseUrl, api, LOGIN, context))];
      } finally {
        await target.drop();
      }
    } finally {
      await browser.close();
      await server.stop();
    }
  },
};

async function measureSignInScripts(browser: Browser, baseUrl: string): Promise<Row> {
  const weight = await onBenchPage(browser, (page) =>
    scriptWeight(page, `${baseUrl}/auth/sign-in`, (p) => p.getByRole("button", { name: "Sign in" }).waitFor()),
  );
  const kb = (bytes: number) => Math.round(bytes / 100) / 10;
  note(`sign-in page: ${weight.files} JavaScript files, ${kb(weight.bytes)} kB, ${kb(weight.gzipBytes)} kB gzip`);
  return {
    name: "console.sign_in_js",
    value: kb(weight.gzipBytes),
    unit: "kB gzip",
    baseline: kb(weight.bytes),
    ratio: ratioOf(weight.gzipBytes, weight.bytes),
    targets: [{ on: "value", max: SIGN_IN_JS_MAX_KB }],
    detail: { note: `${weight.files} files; baseline: their bytes uncompressed` },
  };
}

async function measureResultScroll(browser: Browser, baseUrl: string, database: string): Promise<Row> {
  return onBenchPage(browser, async (page) => {
    await signedInPage(page, baseUrl, "/sql-editor", LOGIN);
    await page.getByLabel("Project").selectOption({ label: "Default project" });
    const [, instance, , name] = database.split("/");
    await page.getByLabel("Database").selectOption({ label: `${name} (${instance})` });
    await page.getByRole("textbox", { name: "SQL statements" }).click();
    await page.keyboard.type(STATEMENT);
    const bare = await scrolledResult(page, BASELINE_ROWS);
    const full = await scrolledResult(page, ROWS);
    return {
      name: "console.result_scroll_longest_task",
      value: round(full.longestTaskMs),
      unit: "ms",
      baseline: round(bare.longestTaskMs),
      ratio: ratioOf(bare.longestTaskMs, full.longestTaskMs),
      targets: [{ on: "value", max: LONGEST_TASK_MAX_MS }],
      detail: {
        note: `${full.longTasks} long tasks in ${full.frames} frames, longest frame ${round(full.longestFrameMs)} ms; baseline: ${BASELINE_ROWS.toLocaleString("en")} rows, ${bare.longTasks} long tasks, longest frame ${round(bare.longestFrameMs)} ms`,
      },
    };
  });
}

/** Runs the statement with `limit`, waits for its rows in the grid, and scrolls through them under watch. */
async function scrolledResult(page: Page, limit: number): Promise<TaskWatch> {
  await page.getByLabel("Row limit").fill(String(limit));
  const started = performance.now();
  await page.getByRole("button", { name: "Run", exact: true }).click();
  const result = page.getByRole("region", { name: "Result 1", exact: true });
  await result.getByText(`${limit.toLocaleString("en")} rows`, { exact: true }).waitFor({ timeout: 180_000 });
  note(`${limit.toLocaleString("en")} rows queried and shown in ${Math.round(performance.now() - started)} ms`);
  const watch = await watchTasks(page, () =>
    page.evaluate(async () => {
      const scroller = document.querySelector('[role="region"][aria-label="Result 1, scrollable"]')!;
      const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
      const end = scroller.scrollHeight - scroller.clientHeight;
      for (let i = 1; i <= 300; i++) {
        scroller.scrollTop = (end * i) / 300;
        await frame();
      }
      for (let i = 1; i <= 200; i++) {
        scroller.scrollTop = end - i * 90;
        await frame();
      }
    }),
  );
  note(`scroll over ${limit.toLocaleString("en")} rows: longest long task ${round(watch.longestTaskMs)} ms (${watch.longTasks}), longest frame ${round(watch.longestFrameMs)} ms in ${watch.frames} frames`);
  return watch;
}
