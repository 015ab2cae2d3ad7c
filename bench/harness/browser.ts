// Headless Chromium for the figures that measure the web console: the
// browser the console's tests drive (Debian's /usr/bin/chromium through
// playwright-core, with this machine's flags: test/helpers/console-browser.ts),
// a page signed in through the console's own form, the JavaScript a page
// loads, and the longest task while a script runs in the page.
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import type { Browser, Page } from "playwright-core";
import { launchChromium } from "../../test/helpers/console-browser.ts";
import type { Login } from "./api-client.ts";

export { launchChromium };

const BUILT_CONSOLE = fileURLToPath(new URL("../../web/dist/index.html", import.meta.url));

/** The console must be built (npm run build:web) for the server to serve it. */
export function assertConsoleBuilt(): void {
  if (!existsSync(BUILT_CONSOLE)) throw new Error("the console is not built: run npm run build:web first");
}

/** Runs `steps` on a page of a fresh context (no cookies), at 1280×800. */
export async function onBenchPage<T>(browser: Browser, steps: (page: Page) => Promise<T>): Promise<T> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  try {
    return await steps(await context.newPage());
  } finally {
    await context.close();
  }
}

/** Opens `path` of the console, signed in through its sign-in form on the way. */
export async function signedInPage(page: Page, baseUrl: string, path: string, login: Login): Promise<void> {
  await page.goto(`${baseUrl}${path}`);
  await page.getByLabel("Login ID").fill(login.loginId);
  await page.getByLabel("Password", { exact: true }).fill(login.password);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL((url) => url.pathname === path);
}

export interface ScriptWeight {
  files: number;
  bytes: number;
  gzipBytes: number;
}

/** The JavaScript files `url` loads until the network is quiet: their number, bytes, and gzip (level 9) bytes. */
export async function scriptWeight(page: Page, url: string, ready: (page: Page) => Promise<void>): Promise<ScriptWeight> {
  const bodies = new Map<string, Promise<Buffer>>();
  page.on("response", (response) => {
    if (new URL(response.url()).pathname.endsWith(".js")) bodies.set(response.url(), response.body());
  });
  await page.goto(url, { waitUntil: "networkidle" });
  await ready(page);
  const loaded = await Promise.all(bodies.values());
  return {
    files: loaded.length,
    bytes: loaded.reduce((sum, body) => sum + body.length, 0),
    gzipBytes: loaded.reduce((sum, body) => sum + gzipSync(body, { level: 9 }).length, 0),
  };
}

export interface TaskWatch {
  /** The longest task the browser reported as long (over 50 ms); 0 when none was. */
  longestTaskMs: number;
  longTasks: number;
  /** The longest time between two animation frames while the script ran. */
  longestFrameMs: number;
  frames: number;
}

/**
 * Runs `during` (which drives the page, e.g. a page.evaluate of a scripted
 * scroll) under a PerformanceObserver of the page's long tasks and a clock of
 * its animation frames.
 */
export async function watchTasks(page: Page, during: () => Promise<void>): Promise<TaskWatch> {
  await page.evaluate(() => {
    const watch = { tasks: [] as number[], frames: 0, longestFrameMs: 0, ticking: true, observer: undefined as PerformanceObserver | undefined };
    watch.observer = new PerformanceObserver((list) => watch.tasks.push(...list.getEntries().map((entry) => entry.duration)));
    watch.observer.observe({ type: "longtask" });
    let last = performance.now();
    const tick = (now: number) => {
      watch.frames++;
      watch.longestFrameMs = Math.max(watch.longestFrameMs, now - last);
      last = now;
      if (watch.ticking) requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    (globalThis as any).benchTaskWatch = watch;
  });
  await during();
  return page.evaluate(async () => {
    const watch = (globalThis as any).benchTaskWatch;
    watch.ticking = false;
    // Long tasks are reported after they end: a pause lets the last ones arrive.
    await new Promise((resolve) => setTimeout(resolve, 250));
    watch.observer.disconnect();
    return { longestTaskMs: Math.max(0, ...watch.tasks), longTasks: watch.tasks.length, longestFrameMs: watch.longestFrameMs, frames: watch.frames };
  });
}
