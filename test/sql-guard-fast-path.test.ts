// The MySQL guard's fast path (docs/decisions/0127) against the full parse:
// whatever the fast path calls certainly a read, the full guard accepts too,
// with the same texts and trees, unless its grammar cannot parse it — over the refusal table's write forms, reads
// of every shape, and variants of both (case, comments between words,
// backquotes, executable comments, unions, subqueries that lock, INTO,
// denied functions under a schema, CTEs). And the lexer's tricky cases.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { readOnlyScript } from "../bench/figures/sql-parse.ts";
import { splitStatements } from "../shared/inventory/index.ts";
import { mysqlRead } from "../shared/sql-editor/guard/my-guard.ts";
import { certainlyMysqlRead } from "../shared/sql-editor/guard/my-plain-read.ts";
import { readStatements } from "../shared/sql-editor/guard/read-only-guard.ts";
import { MYSQL_WRITES } from "./helpers/read-only-refusals.ts";

const READS = [
  ...splitStatements("MYSQL", readOnlyScript()).map((s) => s.text),
  "select 1",
  "select * from canary",
  "SELECT `id`, `name` FROM `shop`.`customers` WHERE `name` = 'it''s'",
  "(select id from a) union (select id from b) order by 1",
  "select id from a union all select id from b",
  "with recursive n as (select 1 as i union all select i + 1 from n where i < 5) select * from n",
  "select * from t where x in (select y from u where u.z = t.z)",
  "select @@version, @@session.sql_mode, @a",
  "select 0x1F, 1e5, 1.5, .5, x'0F', b'01', n'text', _utf8mb4'a'",
  "select \"double quoted\" as s",
  "select sleep(0)",
  "select json_extract(doc, '$.a') from docs",
  "select count(*) over (partition by a order by b rows between 1 preceding and current row) from t",
  "explain select * from t",
  "show tables",
  "show databases",
  "show columns from canary",
  "show index from canary",
  "show create table canary",
  "show variables like 'version'",
  "show full processlist",
];

const EXTRA_UNSURE = [
  "select * from canary c join (select * from canary for update) l on l.id = c.id",
  "select (select id from canary for share) as x",
  "select * from canary where id in (select id from canary lock in share mode)",
  "select id from canary union select id from canary for update",
  "with locked as (select * from canary for update) select * from locked",
  "with gone as (select 1) delete from canary",
  "select id from canary into @v",
  "select id into @v from canary",
  "select id, name into @a, @b from canary limit 1",
  "select * from canary into outfile '/tmp/x' fields terminated by ','",
  "select mysql.get_lock('a', 1)",
  "select `mysql`.`GET_LOCK`('a', 1)",
  "select Get_Lock ('a', 1)",
  "select s.release_lock('a')",
  "select `load_file`('/etc/passwd')",
  "select x from canary where benchmark(10, md5('a'))",
  "select /*!50000 get_lock('a', 1), */ 1",
  "/*!50000 select */ 1",
  "select 1 /*M!100000 , get_lock('a', 1) */",
  "select /*+ SET_VAR(sql_mode = '') */ 1",
  "select @a := 1",
  "select last_insert_id(5)",
  "select nextval(seq)",
  "select next value for seq",
  "explain analyze select * from canary",
  "explain format=json select * from canary",
  "describe canary",
  "select * from canary procedure analyse()",
  "select 1; delete from canary",
  "select 'a\\' , get_lock('x', 1) -- '",
  "select 1 # c\r into outfile '/tmp/x'\n",
  "select 1 --into outfile",
];

/** Variants of a statement the full guard must agree on: case, comments, spacing, unions, subqueries, CTEs. */
function variants(text: string): string[] {
  return [
    text,
    text.toUpperCase(),
    text.replace(/\b[a-z]/g, (c) => c.toUpperCase()),
    text.replaceAll(" ", " /* c */ "),
    text.replaceAll(" ", "\n-- c\n"),
    text.replaceAll(" ", " # c\n"),
    text.replaceAll(" ", "/*!*/ "),
    text.replace(" ", " /*! */ "),
    `(${text})`,
    `select 1 union ${text}`,
    `${text} union select 1`,
    `select * from (${text}) as sub`,
    `select (${text}) as v`,
    `with w as (${text}) select * from w`,
    `explain ${text}`,
    `${text} for update`,
    `${text} into @v`,
    `${text} into outfile '/tmp/out'`,
    `select mysql.get_lock('k', 0), x.* from (${text}) x`,
  ];
}

describe("the MySQL guard's fast path", () => {
  it("calls nothing a read that the full guard refuses for what it does, and answers the same texts and trees", async (c) => {
    const corpus = [...new Set([...READS, ...MYSQL_WRITES, ...EXTRA_UNSURE].flatMap(variants))];
    let fast = 0;
    const disagreements: string[] = [];
    for (const text of corpus) {
      if (!certainlyMysqlRead(text)) continue;
      fast++;
      const full = mysqlRead(text);
      if (full.refusal !== undefined) {
        disagreements.push(`${text} → ${full.refusal}`);
        continue;
      }
      const [read] = await readStatements("MYSQL", text);
      assert.deepEqual({ text: read!.text, tree: read!.tree }, { text, tree: full.tree }, text);
    }
    // What the lexer cannot promise is that node-sql-parser's grammar takes the statement: those reach the
    // server, which refuses what it cannot parse either. Nothing is refused for what it would do.
    assert.deepEqual(disagreements.filter((d) => !/ → cannot be parsed \(/.test(d)), []);
    c.diagnostic(`${corpus.length} statements, ${fast} on the fast path, ${disagreements.length} of them refused by the parser's grammar alone`);
    assert.ok(corpus.length > 2000, `corpus of ${corpus.length}`);
    assert.ok(fast > 200, `${fast} statements on the fast path`);
  });

  it("leaves every write form of the refusal table, and the extra ones, to the full parse", () => {
    assert.deepEqual([...MYSQL_WRITES, ...EXTRA_UNSURE].filter(certainlyMysqlRead), []);
  });

  it("takes every statement of the bench's read-only script", () => {
    const texts = splitStatements("MYSQL", readOnlyScript()).map((s) => s.text);
    assert.deepEqual(texts.filter((text) => !certainlyMysqlRead(text)), []);
  });

  it("parses a fast-path statement's tree when asked, refusing there what the parser refuses", async () => {
    const [read, garbled] = await readStatements("MYSQL", "select id from canary; select from where");
    assert.equal(read!.tree!.type, "select");
    assert.throws(() => garbled!.tree, { message: /^only read statements are allowed: statement 2 "select from where" cannot be parsed/ });
  });
});

describe("the fast path's lexer", () => {
  const cases: [string, boolean][] = [
    ["select 'into' from t", true],
    ["select `into`, `for` from t", true],
    ["select 1 /* for update; into outfile */", true],
    ["select 1 -- into outfile '/tmp/x'\n", true],
    ["select 1 # for update", true],
    ["select 'it''s', `a``b`, \"q\"\"q\" from t", true],
    ["select 1 --into", false],
    ["select 1 --\tinto\n", true],
    ["select 1 /*! for update */", false],
    ["select 1 /*M! for update */", false],
    ["select 1 /*+ BKA(t) */", false],
    ["select 'a\\'b'", false],
    ["select 'unterminated", false],
    ["select `unterminated", false],
    ["select 1 /* unterminated", false],
    ["select (1", false],
    ["select 1)", false],
    ["select 1)(", false],
    ["select 1into @a", false],
    ["select 1e5, 0x1f, 0b01, 12", true],
    ["select \"get_lock\"('a', 1)", false],
    ["select `GET_LOCK`('a', 1)", false],
    ["select sys.sys_eval('id')", false],
    ["select 1; select 2", false],
    ["select {fn now()}", false],
    ["select ?", false],
    ["select ñ from t", false],
    ["select\u00a0* from t", false],
    ["select 1 # c\0 into outfile 'x'", false],
    ["select 1 # c\r\nfrom dual", true],
    ["select 1 # c\rinto outfile 'x'", false],
    ["show tables", true],
    ["(show tables)", false],
    ["explain show tables", false],
    ["show tables where (select 1)", false],
    ["explain (select 1)", true],
    ["describe select * from t", false],
    ["desc canary", false],
    ["`select` 1", false],
    ["update t set a = 1", false],
    ["", false],
  ];
  for (const [text, read] of cases) {
    it(`${JSON.stringify(text)} → ${read ? "certainly a read" : "unsure"}`, () => assert.equal(certainlyMysqlRead(text), read));
  }
});
