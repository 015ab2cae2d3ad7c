// The review figure's measurements, in a process of its own on every core (as
// the worker process that runs plan checks): for each engine, a 2 MiB script
// and a 100-statement one (bench/figures/review-scripts.ts), reviewed with
// every rule of §10.4 enabled, against the engine's raw parser alone on the
// same script, on one thread (PostgreSQL: libpg-query's parseSync of the
// whole script; MySQL: sqlparser-rs's parse of each statement, the parser the
// review takes first for each (node-sql-parser only for what it leaves),
// split beforehand and not timed, as the review parses them one by one).
// Baseline and review alternate, a discarded warm-up of BENCH_WARMUP_S first,
// until BENCH_DURATION_S of each have been measured (at least 5 runs each).
// Prints one JSON line: the samples of each case, in ms.
import { init as loadSqlparserRs, parse as parseSqlparserRs } from "@guanmingchiu/sqlparser-ts";
import { loadModule, parseSync } from "libpg-query";
import type { Engine } from "../shared/inventory/engine/target.ts";
import { effectiveRules, reviewScript } from "../shared/change/review/review.ts";
import { splitStatements } from "../shared/inventory/engine/split.ts";
import { reviewScriptOf, reviewStatementsOf } from "./figures/review-scripts.ts";

export interface ReviewCaseResult {
  name: string;
  engine: Engine;
  bytes: number;
  statements: number;
  /** Advice codes of one review, with their counts (the check that the review ran). */
  advice: Record<string, number>;
  reviewMs: number[];
  parserMs: number[];
}

const warmupS = Number(process.env.BENCH_WARMUP_S ?? 0);
const durationS = Number(process.env.BENCH_DURATION_S);
if (!(durationS > 0)) throw new Error("BENCH_DURATION_S must be a positive number");

await loadModule();
await loadSqlparserRs();
/** The raw parser's work on a script, prepared outside the timing. */
const rawParsers: Record<Engine, (script: string) => () => void> = {
  POSTGRES: (script) => () => void parseSync(script),
  MYSQL: (script) => {
    const texts = splitStatements("MYSQL", script).map((s) => s.text);
    return () => {
      for (const text of texts) parseSqlparserRs(text, "mysql");
    };
  },
};

const results: ReviewCaseResult[] = [];
for (const engine of ["POSTGRES", "MYSQL"] as const) {
  const rules = effectiveRules("bench", []).map((rule) => ({ ...rule, level: "WARNING" as const }));
  const large = reviewScriptOf(engine, 2 * 1024 * 1024);
  const cases = [
    { name: `${engine.toLowerCase()}_2mib`, script: large.script, statements: large.statements },
    { name: `${engine.toLowerCase()}_100`, script: reviewStatementsOf(engine, 100), statements: 100 },
  ];
  for (const c of cases) {
    // Each review gets a script of its own (a trailing comment differs): the review keeps the last script's parse.
    let run = 0;
    const review = () => reviewScript({ engine, script: `${c.script}-- run ${run++}\n`, rules });
    const parse = rawParsers[engine](c.script);
    const advice: Record<string, number> = {};
    for (const a of await review()) advice[a.code] = (advice[a.code] ?? 0) + 1;
    if (advice["syntax-unparsed"]) throw new Error(`${c.name}: the review could not parse ${advice["syntax-unparsed"]} statements`);
    await alternate(review, parse, warmupS);
    const { first, second } = await alternate(review, parse, durationS);
    results.push({ name: c.name, engine, bytes: Buffer.byteLength(c.script), statements: c.statements, advice, reviewMs: first, parserMs: second });
  }
}
process.stdout.write(`${JSON.stringify(results)}\n`);

/** Runs a then b, again and again, until each has run `seconds` (and at least 5 times); their durations in ms. */
async function alternate(a: () => Promise<unknown>, b: () => void, seconds: number): Promise<{ first: number[]; second: number[] }> {
  const first: number[] = [];
  const second: number[] = [];
  const total = (list: number[]) => list.reduce((sum, ms) => sum + ms, 0);
  while (seconds > 0 && (first.length < 5 || total(first) < seconds * 1000 || total(second) < seconds * 1000)) {
    let started = performance.now();
    await a();
    first.push(performance.now() - started);
    started = performance.now();
    b();
    second.push(performance.now() - started);
  }
  return { first, second };
}
