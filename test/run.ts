// `npm test`: runs every test file with node's test runner against a real
// PostgreSQL — PG_URL when set, else an embedded one — with each file in its
// own database cloned from a template migrated once. Fails when no test ran.
// The whole suite (no files named) first runs the console's unit and component
// tests (vitest, `npm run test:web`), so that the one command covers both.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { fileURLToPath } from "node:url";
import { createLogger } from "../shared/platform/logger.ts";
import { quietLogger } from "./helpers/logger.ts";
import { createMigratedDatabase, startPostgresServer } from "./helpers/postgres-server.ts";

const TEST_FILES = ["test/**/*.test.ts", "api/**/*.test.ts", "shared/**/*.test.ts", "worker/**/*.test.ts"];

const log = createLogger({ json: false, debug: false });
const wholeSuite = !process.argv.slice(2).some((a) => !a.startsWith("-"));
if (wholeSuite && (await runConsoleUnitTests()) !== 0) {
  log.error("the console's unit tests failed (npm run test:web)");
  process.exit(1);
}
const server = await startPostgresServer(quietLogger());
log.info(`tests use ${server.label}`);
try {
  const name = `svc_template_${process.pid}`;
  const template = await createMigratedDatabase(server, name, quietLogger());
  try {
    // Servers the tests start (in-process or as child processes) share one key for secrets at rest.
    const secretKey = randomBytes(32).toString("base64");
    const { code, tests, failed } = await runTests({ SVC_TEST_PG_URL: server.adminUrl, SVC_TEST_TEMPLATE: name, SVC_SECRET_KEY: secretKey });
    if (tests === 0) log.error("no test ran: the suite counts as failed");
    process.exitCode = tests === 0 || failed > 0 ? 1 : code;
  } finally {
    await template.drop().catch(() => undefined);
  }
} finally {
  await server.stop();
}

function runTests(env: Record<string, string>): Promise<{ code: number; tests: number; failed: number }> {
  const args = ["--test", "--test-reporter=spec", "--test-concurrency=3", ...process.argv.slice(2)];
  if (wholeSuite) args.push(...TEST_FILES);
  const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] });
  // The runner's summary (ℹ tests N, ℹ fail N) comes before the list of
  // failures, which can be long: the counts are kept as the lines pass.
  const counts = { tests: 0, fail: 0 };
  let pending = "";
  child.stdout.on("data", (chunk: Buffer) => {
    process.stdout.write(chunk);
    const lines = (pending + chunk.toString()).split("\n");
    pending = lines.pop() ?? "";
    for (const line of lines) {
      const summary = /^ℹ (tests|fail) (\d+)$/.exec(line);
      if (summary) counts[summary[1] as keyof typeof counts] = Number(summary[2]);
    }
  });
  return new Promise((resolve) => {
    child.on("close", (code) => resolve({ code: code ?? 1, tests: counts.tests, failed: counts.fail }));
  });
}

function runConsoleUnitTests(): Promise<number> {
  const vitest = fileURLToPath(new URL("../node_modules/vitest/vitest.mjs", import.meta.url)); // not in the package's exports
  const child = spawn(process.execPath, [vitest, "run", "--config", "web/vite.config.ts"], { stdio: "inherit" });
  return new Promise((resolve) => child.on("close", (code) => resolve(code ?? 1)));
}
