// The two MySQL adapters agree: for every statement that both sqlparser-rs
// and node-sql-parser parse and that the sqlparser-rs adapter claims, the
// facts are the same (mysql-parser.ts takes sqlparser-rs's first and falls
// back to node-sql-parser's). The corpus: the MySQL statements of the review
// tests (review.test.ts, rules.test.ts, test/plan-checks, releases, settings,
// change-pipeline), the bench's script templates, and statements written
// here for each kind the adapter handles.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { reviewStatementsOf } from "../../../bench/figures/review-scripts.ts";
import { splitStatements } from "../../inventory/index.ts";
import { parseMysql } from "../../inventory/parsers.ts";
import { mysqlFacts } from "./mysql-facts.ts";
import type { StatementFacts } from "./facts.ts";
import type { Tree } from "./mysql-nodes.ts";
import { readyMysqlParser, sqlparserRsFacts } from "./mysql-parser.ts";

/** Statements of the review tests (string literals of those files that hold SQL). */
const FROM_TESTS: readonly string[] = [
  "UPDATE t SET a = 1 WHERE id = 1",
  "UPDATE t SET a = 1",
  "CREATE INDEX idx_t_a ON t (a)",
  "SELECT 1",
  "SELECT 1 FROM WHERE",
  "ALTER TABLE t\n  ALTER COLUMN a SET DEFAULT 1",
  "DELETE FROM t",
  "UPDATE t SET a = 1 WHERE id > 0",
  "DELETE FROM t WHERE id > 0",
  "DROP TABLE t",
  "CREATE TABLE t (id int PRIMARY KEY)",
  "ALTER TABLE t ADD COLUMN b int NOT NULL",
  "ALTER TABLE t RENAME TO t2",
  "ALTER TABLE t2 ADD COLUMN b int NOT NULL",
  "SET search_path TO app",
  "ALTER TABLE public.t ADD COLUMN b int NOT NULL",
  "ALTER TABLE T ADD COLUMN b int NOT NULL",
  "ALTER TABLE t ALTER COLUMN a SET DEFAULT 1",
  "CREATE TABLE u (id int PRIMARY KEY)",
  "ALTER TABLE s.t ALTER COLUMN a TYPE bigint",
  "ALTER TABLE t ADD COLUMN b timestamptz DEFAULT now()",
  "ALTER TABLE t ADD COLUMN c timestamptz DEFAULT clock_timestamp()",
  "INSERT INTO t (id) VALUES (1)",
  "CREATE INDEX CONCURRENTLY idx_t_a ON t (a)",
  "INSERT INTO t (id) VALUES (2)",
  "ALTER TABLE t ADD COLUMN b int",
  "ALTER TABLE t ADD COLUMN c int, ALGORITHM=INSTANT",
  "ALTER TABLE t ADD INDEX idx_t_b (b)",
  "UPDATE t SET b = 1 WHERE id = 2",
  "COMMIT",
  "DELETE FROM t WHERE id = 1",
  "SELECT a FROM t",
  "SELECT a FROM t WHERE id = 1",
  "SELECT * FROM t WHERE id = 1",
  "SELECT a, count(*) FROM t WHERE id = 1 GROUP BY a",
  "SELECT a FROM t WHERE name LIKE '%x'",
  "SELECT a FROM t WHERE name LIKE 'x%'",
  "ROLLBACK",
  "INSERT INTO u (id) VALUES (1)",
  "CREATE INDEX idx_u_id ON u (id)",
  "INSERT INTO t (id) VALUES (1), (2), (3)",
  "INSERT INTO t (id) VALUES (1), (2)",
  "INSERT INTO t VALUES (1, 2, 'x')",
  "INSERT INTO t (id, a, name) VALUES (1, 2, 'x')",
  "SELECT 2",
  "SELECT 3",
  "SELECT a FROM t WHERE id = 1 AND a = 2",
  "UPDATE t SET b = 1 WHERE id = 1",
  "DROP SCHEMA s",
  "CREATE SCHEMA s",
  "DROP DATABASE d",
  "CREATE DATABASE d",
  "CREATE TABLE u (id int, a int)",
  "CREATE TABLE u (id int PRIMARY KEY, a int)",
  "CREATE TABLE u (id int, a int, PRIMARY KEY (id))",
  "CREATE TABLE u (id int PRIMARY KEY, t_id int REFERENCES t (id))",
  "CREATE TABLE u (id int PRIMARY KEY, t_id int)",
  "ALTER TABLE t ADD CONSTRAINT fk_t_a FOREIGN KEY (a) REFERENCES u (id)",
  "DROP TABLE t_del",
  "CREATE TABLE \"UserData\" (id int PRIMARY KEY)",
  "CREATE TABLE user_data (id int PRIMARY KEY)",
  "CREATE TABLE UserData (id int PRIMARY KEY)",
  "ALTER TABLE t RENAME TO a_very_long_name",
  "ALTER TABLE t RENAME TO t_del",
  "TRUNCATE TABLE t",
  "COMMENT ON TABLE public.u IS 'users'",
  "CREATE TABLE u (id int PRIMARY KEY) COMMENT 'users'",
  "ALTER TABLE t ADD COLUMN \"createdAt\" int",
  "ALTER TABLE t ADD COLUMN created_at int",
  "ALTER TABLE t ADD COLUMN createdAt int",
  "CREATE TABLE u (id int PRIMARY KEY, long_name int)",
  "CREATE TABLE u (id int PRIMARY KEY, short int)",
  "ALTER TABLE t DROP COLUMN a",
  "ALTER TABLE t ALTER COLUMN a TYPE bigint",
  "ALTER TABLE t ALTER COLUMN a SET NOT NULL",
  "ALTER TABLE t MODIFY a bigint",
  "ALTER TABLE t MODIFY a int NOT NULL",
  "ALTER TABLE t CHANGE name label varchar(40)",
  "ALTER TABLE t CHANGE name label varchar(20)",
  "ALTER TABLE t ADD COLUMN b int NOT NULL DEFAULT 0",
  "ALTER TABLE u ADD COLUMN b int NOT NULL",
  "CREATE TABLE u (id int PRIMARY KEY, created_at timestamp)",
  "ALTER TABLE t DROP COLUMN id",
  "ALTER TABLE t RENAME COLUMN a TO b",
  "CREATE TABLE u (id serial PRIMARY KEY)",
  "CREATE TABLE u (id bigint PRIMARY KEY)",
  "CREATE TABLE u (id int PRIMARY KEY, doc json)",
  "CREATE TABLE u (id int PRIMARY KEY, doc text)",
  "ALTER TABLE t ADD COLUMN b bigint",
  "CREATE INDEX t_a ON t (a)",
  "CREATE TABLE u (id int PRIMARY KEY, a int, KEY a_key (a))",
  "CREATE TABLE u (id int PRIMARY KEY, a int, KEY idx_u_a (a))",
  "CREATE INDEX idx_t_x ON t (id, a, name)",
  "CREATE INDEX idx_t_x ON t (a, name)",
  "CREATE INDEX idx_t_b ON t (a, name)",
  "CREATE INDEX idx_u_a ON u (a)",
  "CREATE INDEX idx_t_n ON t (name)",
  "CREATE INDEX idx_t_n ON t (name, a)",
  "CREATE INDEX idx_t_a2 ON t (a)",
  "CREATE INDEX idx_t_a2 ON t (a, id)",
  "ALTER TABLE t ADD CONSTRAINT t_a_check CHECK (a > 0)",
  "ALTER TABLE t ADD CONSTRAINT t_a_check CHECK (a > 0) NOT VALID",
  "ALTER TABLE t ADD CONSTRAINT t_a_fk FOREIGN KEY (a) REFERENCES u (id)",
  "ALTER TABLE t ADD CONSTRAINT t_a_fk FOREIGN KEY (a) REFERENCES u (id) NOT VALID",
  "SET lock_timeout = '2s'",
  "SET lock_timeout = 0",
  "DROP TABLE u",
  "CREATE TABLE u (id int PRIMARY KEY) ENGINE=MyISAM",
  "CREATE TABLE u (id int PRIMARY KEY) ENGINE=InnoDB",
  "ALTER TABLE t ENGINE=MyISAM",
  "ALTER TABLE t ENGINE=InnoDB",
  "ALTER TABLE t ADD COLUMN b int, ALGORITHM=INSTANT",
  "CREATE TABLE \"Users\" (id int PRIMARY KEY)",
  "CREATE TABLE Users (id int PRIMARY KEY)",
  "CREATE TABLE users (id int PRIMARY KEY)",
  "CREATE TABLE users (ID int PRIMARY KEY)",
  "CREATE TABLE USERS (ID int PRIMARY KEY)",
  "CREATE TABLE \"order\" (id int PRIMARY KEY)",
  "CREATE TABLE orders (id int PRIMARY KEY)",
  "CREATE TABLE orders (id int PRIMARY KEY, `key` int)",
  "CREATE TABLE orders (id int PRIMARY KEY, name int)",
  "select 'again'",
  "select count(*)::int as n from employee where name = 'x'",
  "select 1",
  "insert into instance_database (instance_id, name, project_id) values ('pg-outside', 'postgres', 'other')",
  "select 'other'",
  "select 3",
  "select 1 from ledger",

];

const ADDED: readonly string[] = [
  // CREATE TABLE: qualified and backquoted names, every column type family, every table element.
  "CREATE TABLE `shop`.`orders` (`id` bigint unsigned NOT NULL AUTO_INCREMENT, `code` varchar(32) NOT NULL, PRIMARY KEY (`id`), UNIQUE KEY `uk_code` (`code`)) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 COMMENT='orders'",
  "CREATE TABLE shop.t (a tinyint(1), b smallint(5) unsigned, c mediumint, d int(11) unsigned, e integer, f bigint(20), g decimal(10,2), h numeric(12,2), j float, k float(7,3), l double, o bit(1), p boolean)",
  "CREATE TABLE t (id bigint unsigned, a tinyint unsigned, b float unsigned, c decimal(5) unsigned)",
  "CREATE TABLE t (d int signed)",
  "CREATE TABLE t (a char(3), b char, c varchar(255), d binary(4), e varbinary(16), f tinytext, g text, h mediumtext, i longtext, j blob, k mediumblob, l longblob, m json, n date, o time, p datetime, q datetime(3), r timestamp, s timestamp(6), t year, u geometry, v point)",
  "CREATE TABLE t (a int NOT NULL DEFAULT 0, b varchar(10) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL COMMENT 'b', c int GENERATED ALWAYS AS (a + 1) STORED, d int AS (a * 2) VIRTUAL, e timestamp NOT NULL DEFAULT CURRENT_TIMESTAMP ON UPDATE CURRENT_TIMESTAMP)",
  "CREATE TABLE t (id int NOT NULL, u int UNIQUE, r int REFERENCES p (id), KEY k1 (u, r), INDEX (r), UNIQUE INDEX ux (u), FULLTEXT KEY ft (u), CONSTRAINT pk PRIMARY KEY (id), CONSTRAINT fk FOREIGN KEY (r) REFERENCES p (id) ON DELETE CASCADE, CONSTRAINT ck CHECK (u > 0), CHECK (r > 0))",
  "CREATE TABLE t (id int PRIMARY KEY, name varchar(100), KEY k_name (name(10)))",
  "CREATE TABLE IF NOT EXISTS t (id int PRIMARY KEY) ENGINE = MyISAM COMMENT = 'x'",
  "CREATE TABLE t (id int PRIMARY KEY) COMMENT ''",
  "CREATE TABLE t2 LIKE shop.t",
  "CREATE TABLE t3 AS SELECT * FROM t",
  "CREATE TABLE t4 SELECT id FROM t WHERE id > 1",
  "CREATE TEMPORARY TABLE tmp (id int)",
  // ALTER TABLE: every action the node-sql-parser adapter reads.
  "ALTER TABLE shop.t ADD COLUMN a int NOT NULL DEFAULT 0 AFTER id, ADD b varchar(10) FIRST",
  "ALTER TABLE `shop`.`t` DROP COLUMN a, DROP b",
  "ALTER TABLE t MODIFY COLUMN c varchar(10) NOT NULL, MODIFY d bigint unsigned",
  "ALTER TABLE t CHANGE COLUMN d e bigint NOT NULL DEFAULT 1, CHANGE f f int",
  "ALTER TABLE t RENAME COLUMN f TO g",
  "ALTER TABLE t ADD INDEX ix (a), ADD KEY (b), ADD UNIQUE KEY uk (a), ADD UNIQUE (c), ADD FULLTEXT INDEX ft (d)",
  "ALTER TABLE t ADD CONSTRAINT fk FOREIGN KEY (a) REFERENCES x (id), ADD FOREIGN KEY (b) REFERENCES x (id)",
  "ALTER TABLE t ADD PRIMARY KEY (a), ADD CONSTRAINT pk2 PRIMARY KEY (b)",
  "ALTER TABLE t ADD CONSTRAINT uq UNIQUE (a), ADD CONSTRAINT ck CHECK (a > 0), ADD CHECK (b > 0)",
  "ALTER TABLE t DROP INDEX ix2",
  "ALTER TABLE t DROP KEY ix3",
  "ALTER TABLE t DROP PRIMARY KEY",
  "ALTER TABLE t DROP FOREIGN KEY fk2",
  "ALTER TABLE t DROP CONSTRAINT c3",
  "ALTER TABLE t DROP CHECK c4",
  "ALTER TABLE shop.t RENAME TO t2",
  "ALTER TABLE t RENAME AS t3",
  "ALTER TABLE t ADD COLUMN a int, ALGORITHM=INPLACE, LOCK=NONE",
  "ALTER TABLE t ADD COLUMN a int, ALGORITHM=INSTANT",
  "ALTER TABLE t ADD INDEX ix (a), ALGORITHM = INPLACE, LOCK = SHARED",
  "ALTER TABLE t ALGORITHM=COPY, ADD INDEX ix (a)",
  "ALTER TABLE t ALTER COLUMN a SET DEFAULT 2",
  "ALTER TABLE t ALTER COLUMN a DROP DEFAULT",
  "ALTER TABLE t ADD COLUMN a int PRIMARY KEY, ADD b int UNIQUE, ADD c int REFERENCES x (id)",
  "ALTER TABLE t COMMENT = 'orders'",
  "ALTER TABLE t ENGINE = InnoDB",
  "ALTER TABLE t RENAME INDEX a TO b",
  // CREATE INDEX, DROP, TRUNCATE, RENAME.
  "CREATE UNIQUE INDEX ux ON shop.t (a, b(10))",
  "CREATE INDEX ix ON `t` (`a` DESC, b ASC)",
  "CREATE FULLTEXT INDEX ft ON t (a)",
  "CREATE INDEX ix ON t ((a + b))",
  "DROP TABLE IF EXISTS shop.t, u",
  "DROP TABLE `t`",
  "DROP DATABASE IF EXISTS shop",
  "DROP SCHEMA `shop`",
  "DROP INDEX ix ON shop.t",
  "DROP VIEW v",
  "TRUNCATE TABLE shop.t",
  "TRUNCATE t",
  "RENAME TABLE a TO b, shop.c TO shop.d",
  // DML.
  "INSERT INTO shop.t (a, b) VALUES (1, 2), (3, 4)",
  "INSERT INTO t VALUES (1)",
  "INSERT IGNORE INTO t (a) VALUES (1) ON DUPLICATE KEY UPDATE a = a + 1",
  "INSERT INTO t (a) SELECT a FROM u WHERE a LIKE '%x'",
  "INSERT INTO t SET a = 1, b = 2",
  "REPLACE INTO t (a) VALUES (1)",
  "REPLACE INTO shop.t SET a = 1",
  "UPDATE shop.t SET a = 1",
  "UPDATE `t` SET a = 1 WHERE b LIKE '%y' ORDER BY id LIMIT 10",
  "UPDATE t1 JOIN t2 ON t1.a = t2.a SET t1.b = 1 WHERE t2.c = 1",
  "DELETE FROM shop.t",
  "DELETE FROM t WHERE a IN (SELECT * FROM u)",
  "DELETE t1 FROM t1 JOIN t2 ON t1.a = t2.a WHERE t2.b = 1",
  // SELECT.
  "SELECT * FROM shop.t",
  "SELECT t.* FROM t WHERE id = 1",
  "SELECT count(*) FROM t",
  "SELECT a FROM t UNION SELECT b FROM u WHERE x = 1",
  "SELECT a FROM t WHERE x = 1 UNION ALL SELECT b FROM u WHERE y = 2",
  "SELECT a FROM t WHERE b LIKE '%a' OR c NOT LIKE '%b'",
  "SELECT a FROM t JOIN u ON u.id = t.id LEFT JOIN v ON v.id = u.id WHERE t.a = 1",
  "SELECT * FROM (SELECT 1) x",
  "SELECT NOW()",
  "WITH c AS (SELECT 1) SELECT * FROM c",
  // Transactions, SET, other names.
  "BEGIN",
  "START TRANSACTION",
  "START TRANSACTION READ ONLY",
  "COMMIT",
  "ROLLBACK",
  "SET autocommit = 0",
  "SET sql_mode = 'STRICT_TRANS_TABLES'",
  "SET foreign_key_checks = DEFAULT",
  "SET SESSION sql_mode = 'x'",
  "SET @a = 1",
  "SET NAMES utf8mb4",
  "CREATE VIEW shop.v AS SELECT * FROM t",
  "CREATE DATABASE shop",
  "CREATE SCHEMA IF NOT EXISTS `shop`",
  "CREATE TRIGGER trg BEFORE INSERT ON t FOR EACH ROW SET NEW.a = 1",
];

/**
 * Statements where node-sql-parser's facts are wrong and sqlparser-rs's
 * right: the new path keeps the right ones (the other facts still agree).
 */
const CORRECTED: readonly { text: string; why: string; key: keyof StatementFacts; value: unknown }[] = [
  { text: "CREATE SCHEMA s", why: "its tree names the schema where the old adapter does not look", key: "otherNames", value: [{ kind: "schema", name: "s" }] },
  { text: "CREATE SCHEMA IF NOT EXISTS `shop`", why: "as above", key: "otherNames", value: [{ kind: "schema", name: "shop" }] },
  {
    text: "CREATE UNIQUE INDEX ux ON shop.t (a, b(10))",
    why: "b(10) is a prefix of column b, which node-sql-parser reads as a call",
    key: "createdIndexes",
    value: [{ table: { schema: "shop", name: "t" }, name: "ux", columns: ["a", "b"], unique: true, primary: false, declared: true, concurrently: false }],
  },
];

/** The bench's templates (bench/figures/review-scripts.ts), each once. */
const BENCH = splitStatements("MYSQL", reviewStatementsOf("MYSQL", 10)).map((s) => s.text);

function nodeSqlParserFacts(text: string) {
  const parsed = parseMysql(text);
  return "trees" in parsed ? mysqlFacts(parsed.trees[0] as Tree) : undefined;
}

describe("the MySQL adapters", () => {
  it("give the same facts for every statement both parse and the sqlparser-rs adapter claims", async () => {
    await readyMysqlParser();
    let compared = 0;
    for (const text of [...FROM_TESTS, ...ADDED, ...BENCH]) {
      const rs = sqlparserRsFacts(text);
      const reference = nodeSqlParserFacts(text);
      if (!rs || !reference) continue;
      const corrected = CORRECTED.find((c) => c.text === text);
      if (corrected) {
        assert.deepEqual(rs[corrected.key], corrected.value, `${text}: ${corrected.why}`);
        assert.notDeepEqual(reference[corrected.key], corrected.value, `${text}: node-sql-parser's facts are now right`);
        assert.deepEqual({ ...rs, [corrected.key]: reference[corrected.key] }, reference, text);
      } else {
        assert.deepEqual(rs, reference, text);
      }
      compared++;
    }
    assert.ok(compared > 150, `only ${compared} statements compared`);
  });

  it("claims every statement of the bench's script", async () => {
    await readyMysqlParser();
    for (const text of BENCH) assert.ok(sqlparserRsFacts(text), text);
  });
});
