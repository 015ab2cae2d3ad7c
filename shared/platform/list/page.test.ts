// Page sizes and keyset page tokens (contract §2.1).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { DomainError } from "../errors.ts";
import { decodePageToken, encodePageToken, pageSize } from "./page.ts";

function assertInvalid(run: () => unknown, message: string): void {
  assert.throws(run, (error: unknown) => {
    assert.ok(error instanceof DomainError, `expected a DomainError, got ${String(error)}`);
    assert.equal(error.code, "invalid_argument");
    assert.equal(error.message, message);
    return true;
  });
}

const base64url = (text: string) => Buffer.from(text).toString("base64url");

describe("pageSize", () => {
  it("uses the default for an absent or zero size", () => {
    assert.equal(pageSize(undefined), 50);
    assert.equal(pageSize(0), 50);
    assert.equal(pageSize(0n), 50);
    assert.equal(pageSize(undefined, { default: 100, max: 5000 }), 100);
    assert.equal(pageSize(0, { default: 100, max: 20 }), 20);
  });

  it("serves the requested size up to the maximum", () => {
    assert.equal(pageSize(1), 1);
    assert.equal(pageSize(1000), 1000);
    assert.equal(pageSize(10n), 10);
    assert.equal(typeof pageSize(10n), "number");
  });

  it("clamps larger sizes to the maximum, 1000 unless the list says otherwise", () => {
    assert.equal(pageSize(1001), 1000);
    assert.equal(pageSize(99_999, { max: 5000 }), 5000);
    assert.equal(pageSize(2n ** 70n), 1000);
  });

  it("refuses negative and fractional sizes", () => {
    assertInvalid(() => pageSize(-1), "page_size must not be negative");
    assertInvalid(() => pageSize(-5n), "page_size must not be negative");
    assertInvalid(() => pageSize(2.5), "page_size must be a whole number");
    assertInvalid(() => pageSize(Number.NaN), "page_size must be a whole number");
  });
});

describe("page tokens", () => {
  const query = "projects/p1|status:OPEN|create_time desc";

  it("round-trips the key of the last row", () => {
    const key = ["2026-01-01T00:00:00.123Z", 42, ""];
    const token = encodePageToken(query, key);
    assert.match(token, /^[A-Za-z0-9_-]+$/);
    assert.deepEqual(decodePageToken(token, query), key);
    assert.deepEqual(decodePageToken(encodePageToken(query, []), query), []);
  });

  it("gives undefined for an empty token", () => {
    assert.equal(decodePageToken("", query), undefined);
  });

  it("refuses a token from another query", () => {
    const token = encodePageToken(query, [7]);
    assertInvalid(() => decodePageToken(token, `${query} `), "page_token does not belong to this query");
    assertInvalid(() => decodePageToken(token, ""), "page_token does not belong to this query");
  });

  it("refuses malformed tokens", () => {
    const good = JSON.parse(Buffer.from(encodePageToken(query, [1]), "base64url").toString()) as { q: string };
    const garbage = [
      "not a token!",
      "abc=",
      base64url("not json"),
      base64url("null"),
      base64url("[1,2]"),
      base64url(JSON.stringify({ k: [1] })),
      base64url(JSON.stringify({ q: good.q })),
      base64url(JSON.stringify({ q: good.q, k: "1" })),
      base64url(JSON.stringify({ q: good.q, k: [{ id: 1 }] })),
      base64url(JSON.stringify({ q: good.q, k: [null] })),
    ];
    for (const token of garbage) assertInvalid(() => decodePageToken(token, query), "page_token is malformed");
    assert.deepEqual(decodePageToken(base64url(JSON.stringify({ q: good.q, k: [1] })), query), [1]);
  });

  it("refuses a key that holds a NUL or an overlong text, whatever the list", () => {
    for (const key of [["a\u0000b"], ["x".repeat(1025)]]) {
      assertInvalid(() => decodePageToken(encodePageToken(query, key), query), "page_token is malformed");
    }
  });

  it("refuses a key edited into another shape than the list's", () => {
    const shape = ["time", "text"] as const;
    assert.deepEqual(decodePageToken(encodePageToken(query, ["2026-11-27T08:04:05.858673Z", "alpha"]), query, shape), ["2026-11-27T08:04:05.858673Z", "alpha"]);
    assert.deepEqual(decodePageToken(encodePageToken(query, ["2026-11-27T08:04:05Z", 42]), query, shape), ["2026-11-27T08:04:05Z", 42]);
    const edited = [["x", "alpha"], ["2026-02-31T00:00:00Z", "alpha"], ["2026-11-27 08:04:05", "alpha"], [1e300, "alpha"], ["2026-11-27T08:04:05Z"], []];
    for (const key of edited) assertInvalid(() => decodePageToken(encodePageToken(query, key), query, shape), "page_token is malformed");
    for (const key of [["12"], [12]]) assert.deepEqual(decodePageToken(encodePageToken(query, key), query, ["integer"]), key);
    for (const key of [["x"], [1.5], [-1e300], ["1".repeat(16)]]) {
      assertInvalid(() => decodePageToken(encodePageToken(query, key), query, ["integer"]), "page_token is malformed");
    }
  });
});
