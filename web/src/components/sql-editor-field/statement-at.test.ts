import { describe, expect, it } from "vitest";
import { runnableText, statementSpans } from "./statement-at.ts";

const at = (text: string, marker = "|") => ({ text: text.replace(marker, ""), cursor: text.indexOf(marker) });

describe("runnableText", () => {
  it("answers the selection when there is one", () => {
    expect(runnableText("select 1; select 2;", { from: 0, to: 8 }, "postgres")).toBe("select 1");
  });

  it("answers the statement under the cursor, without its semicolon or the spaces around it", () => {
    const { text, cursor } = at("select 1;\n  select |2 ;\nselect 3");
    expect(runnableText(text, { from: cursor, to: cursor }, "postgres")).toBe("select 2");
  });

  it("answers the statement just ended when the cursor is after its semicolon or on a blank line after it", () => {
    for (const script of ["select 1;|", "select 1;\n\n|", "select 1; -- done|"]) {
      const { text, cursor } = at(script);
      expect(runnableText(text, { from: cursor, to: cursor }, "postgres"), script).toBe("select 1");
    }
  });

  it("answers the first statement when the cursor is in a comment before it", () => {
    const { text, cursor } = at("-- a |note\nselect 1;");
    expect(runnableText(text, { from: cursor, to: cursor }, "postgres")).toBe("select 1");
  });

  it("does not split at semicolons in quotes, identifiers, comments or dollar quotes", () => {
    const script = `select 'a;b', "c;d" /* e; */ -- f;\n, $$g;h$$, $t$i;$t$;select 2`;
    expect(statementSpans(script, "postgres").map(({ from, to }) => script.slice(from, to))).toEqual([
      `select 'a;b', "c;d" /* e; */ -- f;\n, $$g;h$$, $t$i;$t$`,
      "select 2",
    ]);
  });

  it("knows MySQL's backticks, backslash escapes and # comments, and PostgreSQL's doubled quotes", () => {
    const mysql = "select `a;b`, 'it\\'s;', 1 # c;\n;select 2";
    expect(statementSpans(mysql, "mysql")).toHaveLength(2);
    const postgres = "select 'it''s;'; select $1";
    expect(statementSpans(postgres, "postgres").map(({ from, to }) => postgres.slice(from, to))).toEqual(["select 'it''s;'", "select $1"]);
  });

  it("answers nothing for a script of comments and spaces", () => {
    expect(runnableText("  -- nothing\n /* here */ ;", { from: 3, to: 3 }, "postgres")).toBe("");
  });
});
