import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { NodeRequestHeaders } from "./request-headers.ts";

const raw = () => ({ ":path": "/x", authorization: "Bearer t", "x-many": ["a", "b"], "set-cookie": ["s=1", "t=2"], cookie: "c=1; d=2" });

describe("a request's headers read from Node's parsed headers", () => {
  it("reads like a Headers object built from them: any case, repeated values joined, pseudo-headers hidden", () => {
    const headers = new NodeRequestHeaders(raw());
    assert.equal(headers.get("Authorization"), "Bearer t");
    assert.equal(headers.get("x-many"), "a, b");
    assert.equal(headers.get("cookie"), "c=1; d=2");
    assert.equal(headers.get(":path"), null);
    assert.equal(headers.get("absent"), null);
    assert.equal(headers.has("AUTHORIZATION"), true);
    assert.equal(headers.has("absent"), false);
    assert.deepEqual(headers.getSetCookie(), ["s=1", "t=2"]);
  });

  it("iterates every header but the pseudo-headers, as a full copy would", () => {
    const headers = new NodeRequestHeaders(raw());
    const expected = [["authorization", "Bearer t"], ["cookie", "c=1; d=2"], ["set-cookie", "s=1"], ["set-cookie", "t=2"], ["x-many", "a, b"]];
    assert.deepEqual([...headers], expected);
    assert.deepEqual([...new Headers(headers)], expected);
    const seen: string[] = [];
    headers.forEach((value, key, parent) => {
      assert.equal(parent, headers);
      seen.push(`${key}=${value}`);
    });
    assert.equal(seen.length, expected.length);
  });

  it("changes a copy of its own, never Node's headers, and reads the change back", () => {
    const source = raw();
    const headers = new NodeRequestHeaders(source);
    headers.set("authorization", "Bearer other");
    headers.append("x-new", "1");
    headers.delete("cookie");
    assert.equal(headers.get("authorization"), "Bearer other");
    assert.equal(headers.get("x-new"), "1");
    assert.equal(headers.get("cookie"), null);
    assert.equal(source.authorization, "Bearer t");
    assert.equal(source.cookie, "c=1; d=2");
  });
});
