// `npm run bench [-- <figure>...] [--json] [--check]`: runs the registered
// figures (all by default) and prints their rows — a readable table, or with
// --json one JSON array of {name, value, unit, baseline, ratio, targets, met}
// on stdout and nothing else (progress goes to stderr). With --check it exits
// 1 when a row misses a target, listing the misses on stderr. Each figure
// sets its rows' targets. Flags: see harness/options.ts (--help).
// A figure is a bench/figures/<name>.ts exporting a Figure; add it to FIGURES.
import { randomBytes } from "node:crypto";
import { loadavg } from "node:os";
import { actuatorFigure } from "./figures/actuator.ts";
import { auditLogFigure } from "./figures/audit-log.ts";
import { authenticatedReadFigure } from "./figures/authenticated-read.ts";
import { consoleFigure } from "./figures/console.ts";
import { loginFigure } from "./figures/login.ts";
import { notifyFigure } from "./figures/notify.ts";
import { reviewFigure } from "./figures/review.ts";
import { rolloutFigure } from "./figures/rollout.ts";
import { sqlFigure } from "./figures/sql.ts";
import { pinSelfToGeneratorCores } from "./harness/cpu.ts";
import { openBenchDatabase } from "./harness/database.ts";
import { parseCommandLine, USAGE, type CommandLine } from "./harness/options.ts";
import { toJson, toTable } from "./harness/report.ts";
import { misses } from "./harness/targets.ts";
import { note, type BenchContext, type Figure, type Row } from "./harness/types.ts";

const FIGURES: readonly Figure[] = [actuatorFigure, loginFigure, authenticatedReadFigure, auditLogFigure, reviewFigure, rolloutFigure, sqlFigure, notifyFigure, consoleFigure];

const commandLine = commandLineOrExit();
if (commandLine.list) {
  for (const figure of FIGURES) process.stdout.write(`${figure.name}\t${figure.description}\n`);
  process.exit(0);
}
const selected = commandLine.figures.length ? commandLine.figures.map(figureNamed) : FIGURES;

const load1 = loadavg()[0] ?? 0;
if (load1 > 0.5) note(`load average is ${load1.toFixed(2)} before the run: other work on this machine may skew the figures`);

// The database (an embedded PostgreSQL included) starts before this process
// is pinned to the load-generator cores, so PostgreSQL keeps every core.
const database = await openBenchDatabase();
// Every server of the run opens the one database with one key for secrets at rest.
process.env.SVC_SECRET_KEY ??= randomBytes(32).toString("base64");
// Ctrl-C reaches the server children too (same process group); drop the database before leaving.
process.once("SIGINT", () => void database.close().finally(() => process.exit(130)));
const rows: Row[] = [];
try {
  pinSelfToGeneratorCores();
  const context: BenchContext = { ...commandLine.options, databaseUrl: database.url };
  note(`warm-up ${context.warmupS} s, measured ${context.durationS} s per target, ${context.connections} connections/streams`);
  if (context.cpuProfDir) note(`server CPU profiles go to ${context.cpuProfDir} (profiling slows the servers: figures are for diagnosis only)`);
  for (const figure of selected) {
    note(`figure ${figure.name}: ${figure.description}`);
    rows.push(...(await figure.run(context)));
  }
} finally {
  await database.close();
}
process.stdout.write(commandLine.json ? `${toJson(rows)}\n` : toTable(rows));
if (commandLine.check) {
  const missed = misses(rows);
  const judged = rows.filter((row) => row.targets?.length).length;
  if (missed.length > 0) {
    process.stderr.write(`targets MISSED:\n${missed.map((line) => `  ${line}\n`).join("")}`);
    process.exit(1);
  }
  note(`every target met (${judged} rows with targets)`);
}

function figureNamed(name: string): Figure {
  const figure = FIGURES.find((f) => f.name === name);
  if (figure) return figure;
  process.stderr.write(`unknown figure "${name}"; known: ${FIGURES.map((f) => f.name).join(", ")}\n${USAGE}\n`);
  process.exit(2);
}

function commandLineOrExit(): CommandLine {
  try {
    return parseCommandLine(process.argv.slice(2), process.env);
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${USAGE}\n`);
    process.exit(2);
  }
}
