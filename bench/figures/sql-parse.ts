// The sql figure's read-only parse: the SQL Editor's guard (readStatements:
// split, parse each statement, walk its tree) over a script of 100 read
// statements — joins, CTEs, subqueries, aggregates, window functions —
// against the engine's parser alone on the same statements (PostgreSQL:
// libpg-query's parseSync of the whole script; MySQL: node-sql-parser's
// astify of each statement as the guard calls it, split beforehand), in this
// process. MySQL's guard takes these reads by its fast path (a lexer,
// docs/decisions/0127) and parses none of them. p50 of the
// runs in the measured window after a warm-up (at least 20 runs); target ≤ 10 ms.
import { loadModule, parseSync } from "libpg-query";
import type { Engine } from "../../shared/inventory/engine/target.ts";
import { splitStatements } from "../../shared/inventory/engine/split.ts";
import { mysqlTree } from "../../shared/sql-editor/guard/my-guard.ts";
import { readStatements } from "../../shared/sql-editor/guard/read-only-guard.ts";
import { Latencies, percentile } from "../harness/load-result.ts";
import { note, ratioOf, type BenchContext, type Row, type Target } from "../harness/types.ts";

const STATEMENTS = 100;
const MIN_RUNS = 20;
const TARGET: Target = { on: "value", max: 10 };

/**
 * Ten shapes of read, each used ten times with its own names and numbers;
 * every one valid on both engines (no reserved word as a name: a statement
 * MySQL's grammar refuses is parsed a second time with MariaDB's, which
 * made a fifth of the script cost about four times as much).
 */
const SHAPES: ((i: number) => string)[] = [
  (i) => `select id, name, amount from orders_${i} where amount > ${i} and status = 'open' order by id desc limit 50`,
  (i) => `select o.id, c.name, sum(l.qty * l.price) as total from orders o join customers c on c.id = o.customer_id join order_lines l on l.order_id = o.id where o.created_at >= '2026-01-0${(i % 9) + 1}' group by o.id, c.name having sum(l.qty) > ${i} order by total desc`,
  (i) => `with recent as (select customer_id, count(*) as n from orders where id > ${i} group by customer_id) select c.name, r.n from customers c join recent r on r.customer_id = c.id where r.n > 2`,
  (i) => `select name from customers where id in (select customer_id from orders where amount > ${i * 10}) and name like 'a%'`,
  (i) => `select id, amount, row_number() over (partition by customer_id order by amount desc) as rank_${i} from orders`,
  (i) => `select count(*), max(amount), min(amount), avg(amount) from orders_${i} where customer_id between ${i} and ${i + 100}`,
  (i) => `select c.id, coalesce(o.amount, 0) as amount, case when o.amount > ${i} then 'big' else 'small' end as size from customers c left join orders o on o.customer_id = c.id`,
  (i) => `select distinct status from orders where created_at < '2026-02-01' and id not in (${i}, ${i + 1}, ${i + 2})`,
  (i) => `select a.id from orders a where exists (select 1 from order_lines b where b.order_id = a.id and b.qty > ${i})`,
  (i) => `select upper(name) as name_${i}, length(name) from customers order by 2 desc limit ${i + 1} offset ${i}`,
];

export function readOnlyScript(): string {
  return Array.from({ length: STATEMENTS }, (_, i) => `${SHAPES[i % SHAPES.length]!(i)};`).join("\n");
}

export async function measureReadOnlyParse(context: BenchContext): Promise<Row[]> {
  await loadModule();
  const script = readOnlyScript();
  const mysqlTexts = splitStatements("MYSQL", script).map((s) => s.text);
  const rawParsers: Record<Engine, () => void> = {
    POSTGRES: () => void parseSync(script),
    MYSQL: () => mysqlTexts.forEach((text) => mysqlTree(text)),
  };
  const rows: Row[] = [];
  for (const engine of ["POSTGRES", "MYSQL"] as const) {
    if ((await readStatements(engine, script)).length !== STATEMENTS) throw new Error(`the ${engine} guard did not read ${STATEMENTS} statements`);
    const guard = await timed(context, () => readStatements(engine, script));
    const parser = await timed(context, async () => rawParsers[engine]());
    note(`read-only parse, ${engine}: p50 ${guard.toFixed(2)} ms; the parser alone ${parser.toFixed(2)} ms`);
    const name = `sql.readonly_parse_${engine === "POSTGRES" ? "pg" : "mysql"}`;
    rows.push({ name, value: round(guard), unit: "ms p50", baseline: round(parser), ratio: ratioOf(parser, guard), targets: [TARGET] });
  }
  return rows;
}

/** p50 in ms of `work`, run for the warm-up and then the measured window. */
async function timed(context: BenchContext, work: () => Promise<unknown>): Promise<number> {
  for (const end = performance.now() + context.warmupS * 1000; performance.now() < end; ) await work();
  const latencies = new Latencies();
  let runs = 0;
  for (const end = performance.now() + context.durationS * 1000; performance.now() < end || runs < MIN_RUNS; runs++) {
    const started = performance.now();
    await work();
    latencies.add(performance.now() - started);
  }
  return percentile(latencies.sorted(), 50);
}

function round(value: number): number {
  return Math.round(value * 100) / 100;
}
