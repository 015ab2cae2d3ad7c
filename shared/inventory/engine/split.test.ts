import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { splitStatements } from "./split.ts";

const texts = (engine: "POSTGRES" | "MYSQL", script: string) => splitStatements(engine, script).map((s) => s.text);

describe("splitStatements", () => {
  it("splits on semicolons and gives 1-based positions of each statement's first character", () => {
    const script = "create table t (a int);\n  -- a comment; not a statement\n  insert into t values (1);\nselect 1";
    const statements = splitStatements("POSTGRES", script);
    assert.deepEqual(statements.map((s) => s.text), ["create table t (a int)", "insert into t values (1)", "select 1"]);
    assert.deepEqual(statements.map((s) => [s.line, s.column]), [[1, 1], [3, 3], [4, 1]]);
    assert.equal(script.slice(statements[1]!.start, statements[1]!.end), "insert into t values (1)");
  });

  it("keeps semicolons inside strings, identifiers, comments and dollar quotes (PostgreSQL)", () => {
    const script = [
      "insert into t values ('a;b', 'it''s;', E'x\\';y');",
      'select "odd;name" from t /* a; /* nested; */ still; */;',
      "create function f() returns int as $body$ begin return 1; end; $body$ language plpgsql;",
      "select $$;$$;",
    ].join("\n");
    assert.deepEqual(texts("POSTGRES", script), [
      "insert into t values ('a;b', 'it''s;', E'x\\';y')",
      'select "odd;name" from t /* a; /* nested; */ still; */',
      "create function f() returns int as $body$ begin return 1; end; $body$ language plpgsql",
      "select $$;$$",
    ]);
  });

  it("knows MySQL's quoting, # comments and backslash escapes", () => {
    const script = "insert into t values ('a\\';b', \"c;d\"); # note; here\nselect `x;y` from t; -- tail;\n";
    assert.deepEqual(texts("MYSQL", script), ["insert into t values ('a\\';b', \"c;d\")", "select `x;y` from t"]);
  });

  it("follows MySQL DELIMITER commands", () => {
    const script = "DELIMITER //\ncreate procedure p() begin select 1; select 2; end//\nDELIMITER ;\nselect 3;";
    const statements = splitStatements("MYSQL", script);
    assert.deepEqual(statements.map((s) => s.text), ["create procedure p() begin select 1; select 2; end", "select 3"]);
    assert.deepEqual(statements.map((s) => s.line), [2, 4]);
  });

  it("drops empty and comment-only pieces", () => {
    assert.deepEqual(texts("POSTGRES", ";; -- only a comment\n/* and another */;"), []);
    assert.deepEqual(texts("MYSQL", ""), []);
  });

  it("ends an unterminated string at the end of the script instead of failing", () => {
    assert.deepEqual(texts("POSTGRES", "select 'open; select 2"), ["select 'open; select 2"]);
  });
});
