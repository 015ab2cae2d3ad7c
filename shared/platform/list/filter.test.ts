// The filter grammar of contract §2.3, checked against the fields of §2.4.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DomainError } from "../errors.ts";
import { parseFilter, parseRfc3339, type FilterFields } from "./filter.ts";

const auditFields: FilterFields = {
  actor: { kind: "text" },
  action: { kind: "text" },
  resource: { kind: "prefix" },
  severity: { kind: "enum", values: ["INFO", "WARNING", "ERROR"] },
  status: { kind: "text", aliases: ["status.code"] },
  create_time: { kind: "time" },
  correlation_id: { kind: "text" },
};

const planFields: FilterFields = {
  creator: { kind: "text" },
  title: { kind: "substring" },
  hasRollout: { kind: "bool" },
  createTime: { kind: "time" },
  checks: { kind: "number" },
};

function assertInvalid(run: () => unknown, message: string | RegExp): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof DomainError, `expected a DomainError, got ${String(error)}`);
    assert.equal(error.code, "invalid_argument");
    if (typeof message === "string") assert.equal(error.message, message);
    else assert.match(error.message, message);
    return true;
  });
}

describe("parseFilter: terms", () => {
  it("gives no terms for an empty, blank or absent filter", () => {
    assert.deepEqual(parseFilter("", auditFields), []);
    assert.deepEqual(parseFilter(" \t\n ", auditFields), []);
    assert.deepEqual(parseFilter(undefined, auditFields), []);
  });

  it("reads the contract's example conjunction", () => {
    assert.deepEqual(parseFilter("actor:users/alice AND action:bb.auth.login", auditFields), [
      { field: "actor", op: ":", value: "users/alice" },
      { field: "action", op: ":", value: "bb.auth.login" },
    ]);
  });

  it("keeps me as the raw value for the caller to substitute", () => {
    assert.deepEqual(parseFilter("creator:me", planFields), [{ field: "creator", op: ":", value: "me" }]);
  });

  it("accepts AND in any case and any whitespace around it", () => {
    const expected = [
      { field: "actor", op: ":", value: "a" },
      { field: "action", op: "=", value: "b" },
      { field: "status", op: "!=", value: "ok" },
    ];
    assert.deepEqual(parseFilter("actor:a and action=b And status!=ok", auditFields), expected);
    assert.deepEqual(parseFilter("  actor:a\tAND\n action=b  aNd  status!=ok  ", auditFields), expected);
  });

  it("resolves quoted values with their escapes", () => {
    const [term] = parseFilter(String.raw`title:"say \"hi\" to C:\\temp AND more"`, planFields);
    assert.equal(term?.value, String.raw`say "hi" to C:\temp AND more`);
    assert.deepEqual(parseFilter('title:""', planFields), [{ field: "title", op: ":", value: "" }]);
  });

  it("reads a time comparison with spaces around the operator", () => {
    const [term] = parseFilter('create_time >= "2026-01-01T00:00:00Z"', auditFields);
    assert.equal(term?.op, ">=");
    assert.ok(term?.value instanceof Date);
    assert.equal(term.value.toISOString(), "2026-01-01T00:00:00.000Z");
  });

  it("matches the longest operator", () => {
    const ops = [">=", "<=", "!=", ":", "=", ">", "<"];
    for (const op of ops) {
      const [term] = parseFilter(`checks${op}3`, planFields);
      assert.deepEqual(term, { field: "checks", op, value: 3 });
    }
  });

  it("keeps operator characters inside a bare value", () => {
    assert.deepEqual(parseFilter("action=bb:x>=y", auditFields), [{ field: "action", op: "=", value: "bb:x>=y" }]);
  });

  it("accepts snake_case and lowerCamelCase names and aliases, reporting the spec's key", () => {
    const time = "2026-05-01T10:00:00Z";
    assert.equal(parseFilter(`createTime<${time}`, auditFields)[0]?.field, "create_time");
    assert.equal(parseFilter(`create_time<${time}`, planFields)[0]?.field, "createTime");
    assert.equal(parseFilter("has_rollout:true", planFields)[0]?.field, "hasRollout");
    assert.equal(parseFilter("correlationId:abc", auditFields)[0]?.field, "correlation_id");
    assert.equal(parseFilter("status.code:ok", auditFields)[0]?.field, "status");
  });

  it("converts numbers, booleans and enum values", () => {
    assert.equal(parseFilter("checks>-2.5e1", planFields)[0]?.value, -25);
    assert.equal(parseFilter("hasRollout:TRUE", planFields)[0]?.value, true);
    assert.equal(parseFilter("hasRollout=false", planFields)[0]?.value, false);
    assert.equal(parseFilter("severity:WARNING", auditFields)[0]?.value, "WARNING");
  });
});

describe("parseFilter: fields, operators and values", () => {
  it("refuses an unknown field, listing the supported ones sorted", () => {
    assertInvalid(
      () => parseFilter("owner:me", auditFields),
      'unknown filter field "owner"; supported: action, actor, correlation_id, create_time, resource, severity, status',
    );
  });

  it("refuses comparisons on fields that only match", () => {
    const cases = [
      [auditFields, "actor", ">"],
      [auditFields, "severity", "<"],
      [auditFields, "resource", ">="],
      [planFields, "title", "<="],
      [planFields, "hasRollout", ">"],
    ] as const;
    for (const [fields, field, op] of cases) {
      assertInvalid(
        () => parseFilter(`${field}${op}x`, fields),
        `operator "${op}" is not supported for field "${field}"; use ":", "=" or "!="`,
      );
    }
  });

  it("refuses a value outside an enum, listing the accepted ones", () => {
    assertInvalid(
      () => parseFilter("severity:info", auditFields),
      'filter: invalid value "info" for field "severity"; accepted: INFO, WARNING, ERROR',
    );
  });

  it("refuses bad numbers and booleans", () => {
    for (const value of ["abc", "0x10", '""', "1e400", "1.2.3"]) {
      assertInvalid(() => parseFilter(`checks=${value}`, planFields), /^filter: invalid number .* for field "checks"$/);
    }
    assertInvalid(
      () => parseFilter("hasRollout:yes", planFields),
      'filter: invalid boolean "yes" for field "hasRollout"; use true or false',
    );
  });

  it("refuses times that are not RFC 3339 or do not exist", () => {
    const bad = ["yesterday", "2026-01-01", "2026-01-01T00:00:00", "2026-02-30T00:00:00Z", "2026-02-29T00:00:00Z"];
    bad.push("2026-13-01T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01T00:60:00Z", "2026-01-01T00:00:60Z");
    bad.push("2026-01-01T00:00:00+24:00", "2026-01-01T00:00:00+01:60", "2026-01-01 00:00:00Z");
    for (const value of bad) {
      assertInvalid(
        () => parseFilter(`create_time>"${value}"`, auditFields),
        `filter: invalid time "${value}" for field "create_time"; use RFC 3339, e.g. "2026-01-01T00:00:00Z"`,
      );
    }
  });
});

describe("parseFilter: syntax errors", () => {
  const cases: [filter: string, message: string][] = [
    ['create_time>"2026', "filter: unterminated quoted string at position 12"],
    ['title:"ends in \\', "filter: unterminated quoted string at position 6"],
    ["actor:", 'filter: expected a value after "actor:"'],
    ["actor:   ", 'filter: expected a value after "actor:"'],
    ["actor: AND action:x", 'filter: expected a value after "actor:"'],
    ["create_time >=", 'filter: expected a value after "create_time>="'],
    [":x", "filter: expected a field name at position 0"],
    ["actor:a AND :c", "filter: expected a field name at position 12"],
    ["actor alice", 'filter: expected an operator after "actor" at position 6; use :, =, !=, >, >=, < or <='],
    ["actor:a OR action:b", 'filter: expected AND between terms at position 8, found "OR"'],
    ["actor:a action:b", 'filter: expected AND between terms at position 8, found "action:b"'],
    ["actor:a AND ", "filter: expected a term after AND at position 8"],
    ['actor:"a"AND action:b', "filter: expected a space after the quoted value at position 9"],
    ['actor:a"b"', 'filter: unexpected quote at position 7; quote the whole value, e.g. actor:"a b"'],
    ['actor:"a\\nb"', 'filter: invalid escape "\\n" at position 8; only \\" and \\\\ are allowed'],
  ];
  for (const [filter, message] of cases) {
    it(`refuses ${JSON.stringify(filter)}`, () => assertInvalid(() => parseFilter(filter, auditFields), message));
  }
});

describe("parseRfc3339", () => {
  it("reads offsets, fractions and lower-case separators", () => {
    assert.equal(parseRfc3339("2026-01-01T05:30:00+05:30")?.toISOString(), "2026-01-01T00:00:00.000Z");
    assert.equal(parseRfc3339("2026-11-20t10:00:00.123456789z")?.toISOString(), "2026-11-20T10:00:00.123Z");
    assert.equal(parseRfc3339("2028-02-29T23:59:59-01:00")?.toISOString(), "2028-03-01T00:59:59.000Z");
  });

  it("gives undefined for what is not a date-time", () => {
    assert.equal(parseRfc3339("2026-04-31T00:00:00Z"), undefined);
    assert.equal(parseRfc3339("2100-02-29T00:00:00Z"), undefined);
    assert.equal(parseRfc3339("1767225600000"), undefined);
  });

  it("gives undefined for an instant before year 1, which the store cannot hold", () => {
    assert.equal(parseRfc3339("0000-01-01T00:00:00Z"), undefined);
    assert.equal(parseRfc3339("0001-01-01T00:30:00+01:00"), undefined);
    assert.equal(parseRfc3339("0001-01-01T00:00:00Z")?.toISOString(), "0001-01-01T00:00:00.000Z");
  });
});
