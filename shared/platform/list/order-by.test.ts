// `order_by` (contract §2.2).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DomainError } from "../errors.ts";
import { parseOrderBy, type OrderKey } from "./order-by.ts";

function assertInvalid(run: () => unknown, message: string): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof DomainError, `expected a DomainError, got ${String(error)}`);
    assert.equal(error.code, "invalid_argument");
    assert.equal(error.message, message);
    return true;
  });
}

const allowed = ["create_time", "title", "updateTime"];
const newestFirst: readonly OrderKey[] = [{ field: "create_time", desc: true }];

describe("parseOrderBy", () => {
  it("gives a copy of the default for an empty, blank or absent order", () => {
    for (const orderBy of ["", "  ", undefined]) {
      const order = parseOrderBy(orderBy, allowed, newestFirst);
      assert.deepEqual(order, newestFirst);
      assert.notEqual(order, newestFirst);
      assert.notEqual(order[0], newestFirst[0]);
    }
  });

  it("reads fields with optional directions in any case", () => {
    assert.deepEqual(parseOrderBy("title", allowed, newestFirst), [{ field: "title", desc: false }]);
    assert.deepEqual(parseOrderBy(" title  ASC ,create_time DESC", allowed, newestFirst), [
      { field: "title", desc: false },
      { field: "create_time", desc: true },
    ]);
  });

  it("accepts snake_case and lowerCamelCase, reporting the allowed name", () => {
    assert.deepEqual(parseOrderBy("createTime desc, update_time", allowed, newestFirst), [
      { field: "create_time", desc: true },
      { field: "updateTime", desc: false },
    ]);
  });

  it("refuses an unknown field, listing the supported ones sorted", () => {
    assertInvalid(
      () => parseOrderBy("title, owner desc", allowed, newestFirst),
      'unknown order_by field "owner"; supported: create_time, title, updateTime',
    );
  });

  it("refuses an unknown direction", () => {
    assertInvalid(
      () => parseOrderBy("createTime up", allowed, newestFirst),
      'order_by: invalid direction "up" for field "create_time"; use asc or desc',
    );
  });

  it("refuses empty items and extra words", () => {
    const cases = [
      ["title,,create_time", ""],
      ["title,", ""],
      ["title desc nulls first", "title desc nulls first"],
    ];
    for (const [orderBy = "", item] of cases) {
      assertInvalid(
        () => parseOrderBy(orderBy, allowed, newestFirst),
        `order_by: expected "field [asc|desc]" between commas, found "${item}"`,
      );
    }
  });

  it("refuses a field given twice, in either spelling", () => {
    assertInvalid(
      () => parseOrderBy("create_time desc, createTime asc", allowed, newestFirst),
      'order_by: field "create_time" is given twice',
    );
  });
});
