// The review API (contract §10.3, §10.4): advice for scripts the parser
// refuses, positions, levels, the effective rules of an environment, rule
// validation, the statement summary, and the MySQL worker pool.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { type DatabaseMetadata, type Engine, splitStatements } from "../../inventory/index.ts";
import { RULES } from "./catalogue.ts";
import { parseMysqlStatements } from "./mysql-parser-pool.ts";
import { parseMysqlPieces } from "./mysql-parser.ts";
import { effectiveRules, reviewScript, ruleProblem, summarizeScript, type ReviewRule } from "./review.ts";

const rule = (type: string, level: ReviewRule["level"] = "ERROR", payload: Record<string, unknown> = {}): ReviewRule => ({ type, level, payload });
const WHERE = rule("statement.where-required-update-delete");
const positions = (advice: { code: string; line: number; column: number }[]) => advice.map((a) => `${a.code}@${a.line}:${a.column}`);

function metadataWithT(schema: string): DatabaseMetadata {
  const primaryKey = { name: "t_pkey", columns: ["id"], unique: true, primary: true, definition: "" };
  const t = { name: "t", columns: [{ name: "id", type: "integer", nullable: false, comment: "" }], indexes: [primaryKey], constraints: [], rowEstimate: 5, comment: "", engine: "" };
  return { schemas: [{ name: schema, tables: [t], views: [], functions: [] }] };
}

describe("reviewScript", () => {
  it("answers one SUCCESS advice for a script without violations", async () => {
    const advice = await reviewScript({ engine: "POSTGRES", script: "UPDATE t SET a = 1 WHERE id = 1;", rules: [WHERE] });
    assert.deepEqual(advice, [{ code: "ok", status: "SUCCESS", title: "OK", content: "The statement passes every review rule.", line: 0, column: 0 }]);
  });

  it("names the object and the rule's title, with the level as status", async () => {
    const advice = await reviewScript({ engine: "POSTGRES", script: "UPDATE t SET a = 1", rules: [rule("statement.where-required-update-delete", "WARNING")] });
    assert.deepEqual(advice, [
      { code: "statement.where-required-update-delete", status: "WARNING", title: "UPDATE and DELETE need a WHERE clause", content: 'UPDATE on "t" has no WHERE clause', line: 1, column: 1 },
    ]);
  });

  it("does not run DISABLED rules nor rules of another engine", async () => {
    const disabled = await reviewScript({ engine: "MYSQL", script: "UPDATE t SET a = 1", rules: [rule("statement.where-required-update-delete", "DISABLED")] });
    assert.deepEqual(disabled.map((a) => a.code), ["ok"]);
    const pgOnly = await reviewScript({ engine: "MYSQL", script: "CREATE INDEX idx_t_a ON t (a)", rules: [rule("index.create-concurrently")], metadata: metadataWithT("") });
    assert.deepEqual(pgOnly.map((a) => a.code), ["ok"]);
  });

  it("reports a PostgreSQL statement the parser refuses as one WARNING at the parser's position, and reviews the others", async () => {
    const advice = await reviewScript({ engine: "POSTGRES", script: "SELECT 1;\nSELECT 1 FROM WHERE;\nUPDATE t SET a = 1;", rules: [WHERE] });
    assert.deepEqual(positions(advice), ["syntax-unparsed@2:15", "statement.where-required-update-delete@3:1"]);
    assert.equal(advice[0]!.status, "WARNING");
    assert.equal(advice[0]!.content, 'syntax error at or near "WHERE" (needs human review)');
  });

  it("reports a MySQL statement the parser refuses as one WARNING at the parser's position, and reviews the others", async () => {
    const script = "SELECT 1;\nALTER TABLE t\n  ALTER COLUMN a SET DEFAULT 1;\nDELETE FROM t;";
    const advice = await reviewScript({ engine: "MYSQL", script, rules: [WHERE] });
    assert.deepEqual(positions(advice), ["syntax-unparsed@3:3", "statement.where-required-update-delete@4:1"]);
    assert.match(advice[0]!.content, /^Expected .* but "A" found\. \(needs human review\)$/);
  });

  it("never throws on garbage", async () => {
    for (const engine of ["POSTGRES", "MYSQL"] as const) {
      const advice = await reviewScript({ engine, script: "$$ (( ' unterminated", rules: effectiveRules("prod", []) });
      assert.deepEqual(advice.map((a) => a.code), ["syntax-unparsed"]);
    }
  });

  it("places advice at the statement's first token, past comments, white space and multi-byte characters", async () => {
    const script = "-- header\n\n  UPDATE t SET a = 'ü';\n/* c */ SELECT 'héllo'; DELETE FROM t;\n";
    for (const engine of ["POSTGRES", "MYSQL"] as const) {
      const advice = await reviewScript({ engine, script, rules: [WHERE] });
      assert.deepEqual(positions(advice), ["statement.where-required-update-delete@3:3", "statement.where-required-update-delete@4:25"], engine);
    }
  });

  it("reads EXPLAIN facts by splitStatements' numbering", async () => {
    const script = "SELECT 1;\n-- only a comment;\n;\nUPDATE t SET a = 1 WHERE id > 0;\nDELETE FROM t WHERE id > 0;";
    for (const engine of ["POSTGRES", "MYSQL"] as const) {
      assert.equal(splitStatements(engine, script)[2]!.text, "DELETE FROM t WHERE id > 0");
      const advice = await reviewScript({
        engine,
        script,
        rules: [rule("statement.affected-row-limit", "WARNING", { max: 10 }), rule("statement.dml-dry-run")],
        rowEstimates: [
          { index: 1, rows: 11 },
          { index: 2, error: "permission denied for table t" },
        ],
      });
      assert.deepEqual(
        advice.map((a) => [a.code, a.line, a.content]),
        [
          ["statement.affected-row-limit", 4, "statement 2 (UPDATE) affects about 11 rows, more than 10"],
          ["statement.dml-dry-run", 5, "statement 3 (DELETE) fails when explained: permission denied for table t"],
        ],
      );
    }
  });

  it("knows a table the script recreates or renames, and the search_path", async () => {
    const notNull = [rule("column.not-null-requires-default")];
    const review = (script: string) => reviewScript({ engine: "POSTGRES", script, rules: notNull, metadata: metadataWithT("public") });
    assert.deepEqual((await review("DROP TABLE t;\nCREATE TABLE t (id int PRIMARY KEY);\nALTER TABLE t ADD COLUMN b int NOT NULL;")).map((a) => a.code), ["ok"]);
    assert.deepEqual(positions(await review("ALTER TABLE t RENAME TO t2;\nALTER TABLE t2 ADD COLUMN b int NOT NULL;")), ["column.not-null-requires-default@2:1"]);
    assert.deepEqual((await review("SET search_path TO app;\nALTER TABLE t ADD COLUMN b int NOT NULL;")).map((a) => a.code), ["ok"]);
    assert.deepEqual(positions(await review("ALTER TABLE public.t ADD COLUMN b int NOT NULL;")), ["column.not-null-requires-default@1:1"]);
  });

  it("reviews the same script again with other metadata and rules (the kept parse carries no state)", async () => {
    const script = "CREATE INDEX idx_t_a ON t (a);\nALTER TABLE t ADD COLUMN b int NOT NULL;";
    const review = (metadata?: DatabaseMetadata) => reviewScript({ engine: "POSTGRES", script, rules: [rule("column.not-null-requires-default"), rule("index.total-number-limit", "ERROR", { max: 1 })], metadata });
    const withT = ["index.total-number-limit@1:1", "column.not-null-requires-default@2:1"];
    assert.deepEqual(positions(await review(metadataWithT("public"))), withT);
    assert.deepEqual((await summarizeScript("POSTGRES", script)).sqlTypes, ["CREATE_INDEX", "ALTER_TABLE"]);
    assert.deepEqual(positions(await review()), ["ok@0:0"]);
    assert.deepEqual(positions(await review(metadataWithT("public"))), withT);
  });

  it("compares MySQL table names without regard to case", async () => {
    const advice = await reviewScript({ engine: "MYSQL", script: "ALTER TABLE T ADD COLUMN b int NOT NULL", rules: [rule("column.not-null-requires-default")], metadata: metadataWithT("") });
    assert.deepEqual(advice.map((a) => a.code), ["column.not-null-requires-default"]);
  });

  it("parses a large MySQL script on worker threads with the same result as on the calling thread", async () => {
    const statements = Array.from({ length: 1500 }, (_, i) =>
      i === 1000 ? "ALTER TABLE t ALTER COLUMN a SET DEFAULT 1" : `UPDATE accounts_${i} SET balance = balance - ${i}, note = 'transfer number ${i} of the batch' WHERE id = ${i}`,
    );
    const script = `${statements.join(";\n")};\nDELETE FROM t;\n`;
    assert.ok(script.length > 128 * 1024, "large enough for two workers");
    const pieces = splitStatements("MYSQL", script);
    assert.deepEqual(await parseMysqlStatements(pieces), parseMysqlPieces(pieces, 0));
    const advice = await reviewScript({ engine: "MYSQL", script, rules: [WHERE] });
    assert.deepEqual(positions(advice), ["syntax-unparsed@1001:15", "statement.where-required-update-delete@1501:1"]);
  });
});

describe("effectiveRules", () => {
  it("sets the starred rules to ERROR in prod and WARNING elsewhere, the others DISABLED, with payload defaults", () => {
    const prod = effectiveRules("prod", undefined);
    const test = effectiveRules("test", []);
    assert.equal(prod.length, RULES.length);
    const levels = (rules: ReviewRule[]) => Object.fromEntries(rules.filter((r) => r.level !== "DISABLED").map((r) => [r.type, r.level]));
    const starred = [
      "statement.where-required-update-delete",
      "statement.disallow-commit",
      "statement.max-size",
      "database.drop-disallowed",
      "table.require-pk",
      "table.drop-naming-convention",
      "column.disallow-drop",
      "column.disallow-change-type",
      "column.not-null-requires-default",
      "index.create-concurrently",
    ];
    assert.deepEqual(levels(prod), Object.fromEntries(starred.map((t) => [t, "ERROR"])));
    assert.deepEqual(levels(test), Object.fromEntries(starred.map((t) => [t, "WARNING"])));
    const payloadOf = (type: string) => prod.find((r) => r.type === type)!.payload;
    assert.deepEqual(payloadOf("statement.max-size"), { bytes: 2097152 });
    assert.deepEqual(payloadOf("table.drop-naming-convention"), { pattern: "_del$" });
    assert.deepEqual(payloadOf("table.naming"), { pattern: "^[a-z][a-z0-9_]*$", maxLength: 63 });
    assert.deepEqual(payloadOf("index.naming"), { pattern: "^idx_{table}_" });
  });

  it("lets a configured entry replace a rule's level and payload, filling missing payload fields", () => {
    const rules = effectiveRules("prod", [rule("table.naming", "WARNING", { maxLength: 30 }), rule("statement.max-size", "DISABLED"), rule("no.such-rule")]);
    assert.deepEqual(
      rules.find((r) => r.type === "table.naming"),
      rule("table.naming", "WARNING", { pattern: "^[a-z][a-z0-9_]*$", maxLength: 30 }),
    );
    assert.equal(rules.find((r) => r.type === "statement.max-size")!.level, "DISABLED");
    assert.ok(!rules.some((r) => r.type === "no.such-rule"));
  });
});

describe("ruleProblem", () => {
  it("accepts every rule with its defaults, and a valid payload", () => {
    for (const definition of RULES) assert.equal(ruleProblem({ type: definition.type }), undefined, definition.type);
    assert.equal(ruleProblem({ type: "column.required", payload: { columns: ["id", "created_at"] } }), undefined);
  });

  it("names the unknown type or the payload field at fault", () => {
    assert.match(ruleProblem({ type: "statement.nope" })!, /^type "statement\.nope" is not a review rule \(known: statement\.where-required-update-delete, .*naming\.reserved-words\)$/);
    assert.equal(ruleProblem({ type: "statement.insert-row-limit", payload: { max: 0 } }), "payload.max must be an integer ≥ 1, got 0");
    assert.equal(ruleProblem({ type: "statement.insert-row-limit", payload: { max: "9" } }), 'payload.max must be an integer ≥ 1, got "9"');
    assert.match(ruleProblem({ type: "table.naming", payload: { pattern: "([a-z" } })!, /^payload\.pattern is not a valid regular expression/);
    assert.equal(ruleProblem({ type: "naming.identifier-case", payload: { case: "camel" } }), 'payload.case must be one of lower, upper, got "camel"');
    assert.equal(ruleProblem({ type: "column.required", payload: { columns: "id" } }), 'payload.columns must be a list of non-empty strings, got "id"');
    assert.equal(ruleProblem({ type: "table.require-pk", payload: { strict: true } }), "payload.strict is not a field of this rule (it takes none)");
    assert.equal(ruleProblem({ type: "statement.max-size", payload: { maximum: 1 } }), "payload.maximum is not a field of this rule (fields: bytes)");
  });
});

describe("summarizeScript", () => {
  const summary = async (engine: Engine, script: string) => (await summarizeScript(engine, script)).statements.map((s) => [s.sqlType, s.kind, s.rewrittenTable?.table ?? null]);

  it("lists the statement types in first-seen order and the tables PostgreSQL DDL rewrites", async () => {
    const script = [
      "CREATE TABLE u (id int PRIMARY KEY)",
      "ALTER TABLE s.t ALTER COLUMN a TYPE bigint",
      "ALTER TABLE t ADD COLUMN b timestamptz DEFAULT now()",
      "ALTER TABLE t ADD COLUMN c timestamptz DEFAULT clock_timestamp()",
      "INSERT INTO t (id) VALUES (1)",
      "CREATE INDEX CONCURRENTLY idx_t_a ON t (a)",
      "INSERT INTO t (id) VALUES (2)",
      "SELEC 1",
    ].join(";\n");
    const result = await summarizeScript("POSTGRES", script);
    assert.deepEqual(result.sqlTypes, ["CREATE_TABLE", "ALTER_TABLE", "INSERT", "CREATE_INDEX", "UNKNOWN"]);
    assert.deepEqual(result.statements[1]!.rewrittenTable, { schema: "s", table: "t" });
    assert.deepEqual(result.statements[3]!.rewrittenTable, { schema: "public", table: "t" });
    assert.deepEqual(await summary("POSTGRES", script), [
      ["CREATE_TABLE", "DDL", null],
      ["ALTER_TABLE", "DDL", "t"],
      ["ALTER_TABLE", "DDL", null],
      ["ALTER_TABLE", "DDL", "t"],
      ["INSERT", "DML", null],
      ["CREATE_INDEX", "DDL", null],
      ["INSERT", "DML", null],
      ["UNKNOWN", "OTHER", null],
    ]);
  });

  it("counts most MySQL ALTER TABLEs as rewrites, not INSTANT ones nor index changes", async () => {
    const script = "ALTER TABLE t ADD COLUMN b int;\nALTER TABLE t ADD COLUMN c int, ALGORITHM=INSTANT;\nALTER TABLE t ADD INDEX idx_t_b (b);\nUPDATE t SET b = 1 WHERE id = 2;\nCOMMIT;";
    assert.deepEqual(await summary("MYSQL", script), [
      ["ALTER_TABLE", "DDL", "t"],
      ["ALTER_TABLE", "DDL", null],
      ["ALTER_TABLE", "DDL", null],
      ["UPDATE", "DML", null],
      ["COMMIT", "OTHER", null],
    ]);
    assert.deepEqual((await summarizeScript("MYSQL", script)).statements.map((s) => [s.index, s.line, s.column]), [
      [0, 1, 1],
      [1, 2, 1],
      [2, 3, 1],
      [3, 4, 1],
      [4, 5, 1],
    ]);
  });
});
