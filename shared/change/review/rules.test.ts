// Every review rule of contract §10.4, for each engine it names: a script
// that breaks it and one that keeps it, reviewed with that rule alone.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import type { DatabaseMetadata, Engine, RowEstimate } from "../../inventory/index.ts";
import { RULES } from "./catalogue.ts";
import { reviewScript } from "./review.ts";

/** Table t (id, a, name) with its primary key and an index on name; "" is MySQL's one schema. */
function metadataOf(engine: Engine): DatabaseMetadata {
  const column = (name: string, type: string) => ({ name, type, nullable: name !== "id", comment: "" });
  const index = (name: string, columns: string[], primary: boolean) => ({ name, columns, unique: primary, primary, definition: "" });
  const t = {
    name: "t",
    columns: [column("id", engine === "POSTGRES" ? "integer" : "int"), column("a", engine === "POSTGRES" ? "integer" : "int"), column("name", "varchar(20)")],
    indexes: [index("idx_t_name", ["name"], false), index(engine === "POSTGRES" ? "t_pkey" : "PRIMARY", ["id"], true)],
    constraints: [],
    rowEstimate: 1000,
    comment: "",
    engine: engine === "POSTGRES" ? "" : "InnoDB",
  };
  return { schemas: [{ name: engine === "POSTGRES" ? "public" : "", tables: [t], views: [], functions: [] }] };
}

interface Case {
  rule: string;
  engines: readonly Engine[];
  fail: string;
  pass: string;
  payload?: Record<string, unknown>;
  failEstimates?: RowEstimate[];
  passEstimates?: RowEstimate[];
}

const PG: readonly Engine[] = ["POSTGRES"];
const MY: readonly Engine[] = ["MYSQL"];
const BOTH: readonly Engine[] = ["POSTGRES", "MYSQL"];

const CASES: Case[] = [
  { rule: "statement.where-required-update-delete", engines: BOTH, fail: "UPDATE t SET a = 1", pass: "UPDATE t SET a = 1 WHERE id = 1" },
  { rule: "statement.where-required-update-delete", engines: BOTH, fail: "DELETE FROM t", pass: "DELETE FROM t WHERE id = 1" },
  { rule: "statement.where-required-select", engines: BOTH, fail: "SELECT a FROM t", pass: "SELECT a FROM t WHERE id = 1" },
  { rule: "statement.no-select-all", engines: BOTH, fail: "SELECT * FROM t WHERE id = 1", pass: "SELECT a, count(*) FROM t WHERE id = 1 GROUP BY a" },
  { rule: "statement.no-leading-wildcard-like", engines: BOTH, fail: "SELECT a FROM t WHERE name LIKE '%x'", pass: "SELECT a FROM t WHERE name LIKE 'x%'" },
  { rule: "statement.disallow-commit", engines: BOTH, fail: "UPDATE t SET a = 1 WHERE id = 1;\nCOMMIT;", pass: "UPDATE t SET a = 1 WHERE id = 1;" },
  { rule: "statement.disallow-commit", engines: BOTH, fail: "ROLLBACK", pass: "SELECT 1" },
  {
    rule: "statement.disallow-mix-ddl-dml",
    engines: BOTH,
    fail: "CREATE TABLE u (id int PRIMARY KEY);\nINSERT INTO u (id) VALUES (1);",
    pass: "CREATE TABLE u (id int PRIMARY KEY);\nCREATE INDEX idx_u_id ON u (id);",
  },
  {
    rule: "statement.affected-row-limit",
    engines: BOTH,
    payload: { max: 100 },
    fail: "UPDATE t SET a = 1 WHERE id > 0",
    failEstimates: [{ index: 0, rows: 500 }],
    pass: "UPDATE t SET a = 1 WHERE id > 0",
    passEstimates: [{ index: 0, rows: 50 }],
  },
  { rule: "statement.insert-row-limit", engines: BOTH, payload: { max: 2 }, fail: "INSERT INTO t (id) VALUES (1), (2), (3)", pass: "INSERT INTO t (id) VALUES (1), (2)" },
  { rule: "statement.insert-must-specify-columns", engines: BOTH, fail: "INSERT INTO t VALUES (1, 2, 'x')", pass: "INSERT INTO t (id, a, name) VALUES (1, 2, 'x')" },
  { rule: "statement.max-statements", engines: BOTH, payload: { max: 2 }, fail: "SELECT 1;\nSELECT 2;\nSELECT 3;", pass: "SELECT 1;\nSELECT 2;\n-- no third\n" },
  { rule: "statement.max-size", engines: BOTH, payload: { bytes: 30 }, fail: "SELECT a FROM t WHERE id = 1 AND a = 2", pass: "SELECT a FROM t WHERE id = 1" },
  {
    rule: "statement.dml-dry-run",
    engines: BOTH,
    fail: "UPDATE t SET b = 1 WHERE id = 1",
    failEstimates: [{ index: 0, error: 'column "b" does not exist' }],
    pass: "UPDATE t SET a = 1 WHERE id = 1",
    passEstimates: [{ index: 0, rows: 1 }],
  },
  { rule: "database.drop-disallowed", engines: PG, fail: "DROP SCHEMA s", pass: "CREATE SCHEMA s" },
  { rule: "database.drop-disallowed", engines: BOTH, fail: "DROP DATABASE d", pass: "CREATE DATABASE d" },
  { rule: "table.require-pk", engines: BOTH, fail: "CREATE TABLE u (id int, a int)", pass: "CREATE TABLE u (id int PRIMARY KEY, a int)" },
  { rule: "table.require-pk", engines: BOTH, fail: "CREATE TABLE u (id int, a int)", pass: "CREATE TABLE u (id int, a int, PRIMARY KEY (id))" },
  { rule: "table.no-foreign-key", engines: BOTH, fail: "CREATE TABLE u (id int PRIMARY KEY, t_id int REFERENCES t (id))", pass: "CREATE TABLE u (id int PRIMARY KEY, t_id int)" },
  { rule: "table.no-foreign-key", engines: BOTH, fail: "ALTER TABLE t ADD CONSTRAINT fk_t_a FOREIGN KEY (a) REFERENCES u (id)", pass: "ALTER TABLE t ADD COLUMN b int" },
  { rule: "table.drop-naming-convention", engines: BOTH, fail: "DROP TABLE t", pass: "DROP TABLE t_del" },
  { rule: "table.naming", engines: PG, fail: 'CREATE TABLE "UserData" (id int PRIMARY KEY)', pass: "CREATE TABLE user_data (id int PRIMARY KEY)" },
  { rule: "table.naming", engines: MY, fail: "CREATE TABLE UserData (id int PRIMARY KEY)", pass: "CREATE TABLE user_data (id int PRIMARY KEY)" },
  { rule: "table.naming", engines: BOTH, payload: { maxLength: 10 }, fail: "ALTER TABLE t RENAME TO a_very_long_name", pass: "ALTER TABLE t RENAME TO t_del" },
  { rule: "table.disallow-truncate", engines: BOTH, fail: "TRUNCATE TABLE t", pass: "DELETE FROM t WHERE id = 1" },
  { rule: "table.comment-required", engines: PG, fail: "CREATE TABLE u (id int PRIMARY KEY)", pass: "CREATE TABLE u (id int PRIMARY KEY);\nCOMMENT ON TABLE public.u IS 'users';" },
  { rule: "table.comment-required", engines: MY, fail: "CREATE TABLE u (id int PRIMARY KEY)", pass: "CREATE TABLE u (id int PRIMARY KEY) COMMENT 'users'" },
  { rule: "column.naming", engines: PG, fail: 'ALTER TABLE t ADD COLUMN "createdAt" int', pass: "ALTER TABLE t ADD COLUMN created_at int" },
  { rule: "column.naming", engines: MY, fail: "ALTER TABLE t ADD COLUMN createdAt int", pass: "ALTER TABLE t ADD COLUMN created_at int" },
  { rule: "column.naming", engines: BOTH, payload: { maxLength: 5 }, fail: "CREATE TABLE u (id int PRIMARY KEY, long_name int)", pass: "CREATE TABLE u (id int PRIMARY KEY, short int)" },
  { rule: "column.disallow-drop", engines: BOTH, fail: "ALTER TABLE t DROP COLUMN a", pass: "ALTER TABLE t ADD COLUMN b int" },
  { rule: "column.disallow-change-type", engines: PG, fail: "ALTER TABLE t ALTER COLUMN a TYPE bigint", pass: "ALTER TABLE t ALTER COLUMN a SET NOT NULL" },
  { rule: "column.disallow-change-type", engines: MY, fail: "ALTER TABLE t MODIFY a bigint", pass: "ALTER TABLE t MODIFY a int NOT NULL" },
  { rule: "column.disallow-change-type", engines: MY, fail: "ALTER TABLE t CHANGE name label varchar(40)", pass: "ALTER TABLE t CHANGE name label varchar(20)" },
  { rule: "column.not-null-requires-default", engines: BOTH, fail: "ALTER TABLE t ADD COLUMN b int NOT NULL", pass: "ALTER TABLE t ADD COLUMN b int NOT NULL DEFAULT 0" },
  {
    rule: "column.not-null-requires-default",
    engines: BOTH,
    fail: "ALTER TABLE t ADD COLUMN b int NOT NULL",
    pass: "CREATE TABLE u (id int PRIMARY KEY);\nALTER TABLE u ADD COLUMN b int NOT NULL;",
  },
  {
    rule: "column.required",
    engines: BOTH,
    payload: { columns: ["id", "created_at"] },
    fail: "CREATE TABLE u (id int PRIMARY KEY)",
    pass: "CREATE TABLE u (id int PRIMARY KEY, created_at timestamp)",
  },
  { rule: "column.required", engines: BOTH, fail: "ALTER TABLE t DROP COLUMN id", pass: "ALTER TABLE t DROP COLUMN a" },
  { rule: "column.disallow-rename", engines: BOTH, fail: "ALTER TABLE t RENAME COLUMN a TO b", pass: "ALTER TABLE t ADD COLUMN b int" },
  { rule: "column.type-disallow-list", engines: PG, fail: "CREATE TABLE u (id serial PRIMARY KEY)", pass: "CREATE TABLE u (id bigint PRIMARY KEY)" },
  { rule: "column.type-disallow-list", engines: MY, fail: "CREATE TABLE u (id int PRIMARY KEY, doc json)", pass: "CREATE TABLE u (id int PRIMARY KEY, doc text)" },
  { rule: "column.type-disallow-list", engines: BOTH, payload: { types: ["integer"] }, fail: "ALTER TABLE t ADD COLUMN b int", pass: "ALTER TABLE t ADD COLUMN b bigint" },
  { rule: "index.naming", engines: BOTH, fail: "CREATE INDEX t_a ON t (a)", pass: "CREATE INDEX idx_t_a ON t (a)" },
  { rule: "index.naming", engines: MY, fail: "CREATE TABLE u (id int PRIMARY KEY, a int, KEY a_key (a))", pass: "CREATE TABLE u (id int PRIMARY KEY, a int, KEY idx_u_a (a))" },
  { rule: "index.key-number-limit", engines: BOTH, payload: { max: 2 }, fail: "CREATE INDEX idx_t_x ON t (id, a, name)", pass: "CREATE INDEX idx_t_x ON t (a, name)" },
  {
    rule: "index.total-number-limit",
    engines: BOTH,
    payload: { max: 3 },
    fail: "CREATE INDEX idx_t_a ON t (a);\nCREATE INDEX idx_t_b ON t (a, name);",
    pass: "CREATE INDEX idx_t_a ON t (a);\nCREATE INDEX idx_u_a ON u (a);",
  },
  { rule: "index.no-duplicate", engines: BOTH, fail: "CREATE INDEX idx_t_n ON t (name)", pass: "CREATE INDEX idx_t_n ON t (name, a)" },
  { rule: "index.no-duplicate", engines: BOTH, fail: "CREATE INDEX idx_t_a ON t (a);\nCREATE INDEX idx_t_a2 ON t (a);", pass: "CREATE INDEX idx_t_a ON t (a);\nCREATE INDEX idx_t_a2 ON t (a, id);" },
  { rule: "index.create-concurrently", engines: PG, fail: "CREATE INDEX idx_t_a ON t (a)", pass: "CREATE INDEX CONCURRENTLY idx_t_a ON t (a)" },
  { rule: "index.create-concurrently", engines: PG, fail: "CREATE INDEX idx_t_a ON t (a)", pass: "CREATE TABLE u (id int PRIMARY KEY, a int);\nCREATE INDEX idx_u_a ON u (a);" },
  { rule: "constraint.add-check-not-valid", engines: PG, fail: "ALTER TABLE t ADD CONSTRAINT t_a_check CHECK (a > 0)", pass: "ALTER TABLE t ADD CONSTRAINT t_a_check CHECK (a > 0) NOT VALID" },
  {
    rule: "constraint.add-fk-not-valid",
    engines: PG,
    fail: "ALTER TABLE t ADD CONSTRAINT t_a_fk FOREIGN KEY (a) REFERENCES u (id)",
    pass: "ALTER TABLE t ADD CONSTRAINT t_a_fk FOREIGN KEY (a) REFERENCES u (id) NOT VALID",
  },
  { rule: "statement.lock-timeout-required", engines: PG, fail: "ALTER TABLE t ADD COLUMN b int", pass: "SET lock_timeout = '2s';\nALTER TABLE t ADD COLUMN b int;" },
  { rule: "statement.lock-timeout-required", engines: PG, fail: "SET lock_timeout = 0;\nDROP TABLE t;", pass: "DROP TABLE u;" },
  { rule: "table.engine-innodb", engines: MY, fail: "CREATE TABLE u (id int PRIMARY KEY) ENGINE=MyISAM", pass: "CREATE TABLE u (id int PRIMARY KEY) ENGINE=InnoDB" },
  { rule: "table.engine-innodb", engines: MY, fail: "ALTER TABLE t ENGINE=MyISAM", pass: "ALTER TABLE t ENGINE=InnoDB" },
  { rule: "statement.online-ddl-options", engines: MY, fail: "ALTER TABLE t ADD COLUMN b int", pass: "ALTER TABLE t ADD COLUMN b int, ALGORITHM=INSTANT" },
  { rule: "naming.identifier-case", engines: PG, fail: 'CREATE TABLE "Users" (id int PRIMARY KEY)', pass: "CREATE TABLE Users (id int PRIMARY KEY)" },
  { rule: "naming.identifier-case", engines: MY, fail: "CREATE TABLE Users (id int PRIMARY KEY)", pass: "CREATE TABLE users (id int PRIMARY KEY)" },
  { rule: "naming.identifier-case", engines: MY, payload: { case: "upper" }, fail: "CREATE TABLE users (ID int PRIMARY KEY)", pass: "CREATE TABLE USERS (ID int PRIMARY KEY)" },
  { rule: "naming.reserved-words", engines: PG, fail: 'CREATE TABLE "order" (id int PRIMARY KEY)', pass: "CREATE TABLE orders (id int PRIMARY KEY)" },
  { rule: "naming.reserved-words", engines: MY, fail: "CREATE TABLE orders (id int PRIMARY KEY, `key` int)", pass: "CREATE TABLE orders (id int PRIMARY KEY, name int)" },
];

async function review(engine: Engine, c: Case, script: string, rowEstimates: RowEstimate[] | undefined) {
  return reviewScript({ engine, script, rules: [{ type: c.rule, level: "ERROR", payload: c.payload ?? {} }], metadata: metadataOf(engine), rowEstimates });
}

describe("review rules (contract §10.4)", () => {
  for (const c of CASES) {
    for (const engine of c.engines) {
      it(`${c.rule} on ${engine}: ${JSON.stringify(c.fail)} breaks it, ${JSON.stringify(c.pass)} keeps it`, async () => {
        const failing = await review(engine, c, c.fail, c.failEstimates);
        assert.ok(!failing.some((a) => a.code === "syntax-unparsed"), JSON.stringify(failing));
        assert.ok(failing.length > 0 && failing.every((a) => a.code === c.rule && a.status === "ERROR"), JSON.stringify(failing));
        assert.ok(failing.every((a) => a.content.length > 0 && a.line >= 1 && a.column >= 1));
        const passing = await review(engine, c, c.pass, c.passEstimates);
        assert.deepEqual(passing.map((a) => a.code), ["ok"], JSON.stringify(passing));
      });
    }
  }

  it("has a failing and a passing example for every rule on every engine it names", () => {
    const missing = RULES.flatMap((rule) => rule.engines.filter((engine) => !CASES.some((c) => c.rule === rule.type && c.engines.includes(engine))).map((engine) => `${rule.type} on ${engine}`));
    assert.deepEqual(missing, []);
    assert.equal(RULES.length, 38);
  });
});
