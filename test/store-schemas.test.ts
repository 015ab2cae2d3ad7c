// Guard: a query's row schema is a module constant. zod compiles a schema's
// parser on its first parse, so a schema written inside the query
// (sql.type(z.object(…)), sql.prepared(name, row.extend(…))) is compiled again
// on every call (docs/decisions/0076-schemas-built-once-hot-reads-named.md).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { serviceSources } from "./helpers/service-sources.ts";

/** sql.type( or sql.prepared(name, followed by anything but a bare name and `)`. */
const BUILT_IN_PLACE = /sql\.type\((?!\s*[\w$]+\s*\))|sql\.prepared\([^,()]+,(?!\s*[\w$]+\s*\))/g;
const ANY_SCHEMA = /sql\.(type|prepared)\(/g;

function offenders(text: string): number[] {
  return [...text.matchAll(BUILT_IN_PLACE)].map((match) => text.slice(0, match.index).split("\n").length);
}

describe("row schemas of queries", () => {
  it("tells a schema built in the query from a named one", () => {
    assert.deepEqual(offenders("db.oneFirst(sql.type(z.object({ n: z.number() }))`select 1 as n`)"), [1]);
    assert.deepEqual(offenders("\ndb.any(sql.type(settingRow.extend({ name: z.string() }))`…`)"), [2]);
    assert.deepEqual(offenders('db.one(sql.prepared("x.find", z.object({})) `…`)'), [1]);
    assert.deepEqual(offenders('db.one(sql.type(countRow)`…`); db.one(sql.prepared("x.find", row)`…`); sql.prepared(jobs.statementName, taskRunRow)'), []);
  });

  it("finds every query's schema named, none built in the query", async () => {
    const found: string[] = [];
    let queries = 0;
    for (const { path, text } of await serviceSources()) {
      queries += [...text.matchAll(ANY_SCHEMA)].length;
      for (const line of offenders(text)) found.push(`${path}:${line}`);
    }
    assert.ok(queries > 100, `the scan read ${queries} typed queries`);
    assert.deepEqual(found, [], "schemas built inside a query: hoist each to a module constant");
  });
});
