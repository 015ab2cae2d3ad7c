import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { describe, it } from "node:test";
import {
  boundedJson,
  boundedJsonText,
  boundedText,
  COLUMN_CHARS,
  escapeUnsafe,
  headOf,
  PAYLOAD_CHARS,
  searchedForms,
  searchedPrefix,
  STRING_CHARS,
} from "./audit-bounds.ts";

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");
const MARKER = /…\[truncated from (\d+) bytes; sha256 ([0-9a-f]{64})\]$/;

describe("audit bounds", () => {
  it("escapes NUL and lone surrogates visibly, and leaves everything else as it is", () => {
    assert.equal(escapeUnsafe("users/ad\0min"), "users/ad\\u0000min");
    assert.equal(escapeUnsafe("a\ud800b\udfffc"), "a\\ud800b\\udfffc");
    assert.equal(escapeUnsafe("pair 😀 and \\ backslash, ümlaut"), "pair 😀 and \\ backslash, ümlaut");
    assert.equal(escapeUnsafe("\udbff\udc00"), "\udbff\udc00", "a pair is kept");
  });

  it("keeps short text whole and cuts long text with its size and hash", () => {
    assert.equal(boundedText("users/alice", COLUMN_CHARS), "users/alice");
    const long = `users/${"ab".repeat(600_000)}`;
    const stored = boundedText(long, COLUMN_CHARS);
    const [, bytes, hash] = MARKER.exec(stored) ?? [];
    assert.equal(stored.slice(0, COLUMN_CHARS), long.slice(0, COLUMN_CHARS));
    assert.equal(stored.indexOf("…"), COLUMN_CHARS);
    assert.equal(Number(bytes), Buffer.byteLength(long));
    assert.equal(hash, sha256(long));
    assert.ok(Buffer.byteLength(boundedText("😀".repeat(2000), COLUMN_CHARS)) < 2704, "fits a btree entry");
  });

  it("hashes the escaped whole and never splits a surrogate pair", () => {
    const text = `${"x".repeat(COLUMN_CHARS - 1)}😀\0${"y".repeat(COLUMN_CHARS)}`;
    const stored = boundedText(text, COLUMN_CHARS);
    assert.ok(stored.startsWith(`${"x".repeat(COLUMN_CHARS - 1)}…`), "the pair at the limit goes whole");
    assert.ok(stored.isWellFormed());
    assert.equal(MARKER.exec(stored)?.[2], sha256(text.replace("\0", "\\u0000")));
    assert.equal(headOf("a😀", 2), "a");
  });

  it("bounds every string and key of a payload and keeps its shape", () => {
    const big = "s".repeat(1 << 20);
    const stored = JSON.parse(boundedJson({ name: "projects/p\0", statement: big, list: [big], [big]: 1, n: 10n, ok: true }));
    assert.equal(stored.name, "projects/p\\u0000");
    assert.equal(stored.statement.length, STRING_CHARS + "…[truncated from 1048576 bytes; sha256 ]".length + 64);
    assert.match(stored.statement, MARKER);
    assert.deepEqual(stored.list, [stored.statement]);
    assert.equal(stored[stored.statement], 1, "a long key is bounded too");
    assert.equal(stored.n, "10");
    assert.equal(stored.ok, true);
  });

  it("keeps a payload still too long after its strings are cut as one bounded string", () => {
    const many = Array.from({ length: 5000 }, (_, i) => `statement ${i}`);
    const json = boundedJson({ many });
    assert.ok(json.length < PAYLOAD_CHARS);
    const stored = JSON.parse(json);
    assert.deepEqual(Object.keys(stored), ["truncated"]);
    assert.ok(stored.truncated.startsWith('{"many":["statement 0","statement 1"'));
    assert.equal(MARKER.exec(stored.truncated)?.[2], sha256(JSON.stringify({ many })));
  });

  it("reads JSON text, and keeps text that is not JSON as one bounded string", () => {
    assert.equal(boundedJsonText(""), "");
    assert.equal(boundedJsonText('{"title":"a\\u0000b","x":"\\ud800"}'), '{"title":"a\\\\u0000b","x":"\\\\ud800"}');
    assert.equal(boundedJsonText("not json\0"), "not json\\u0000");
  });

  it("searches a value as stored and as given, and a prefix as a column keeps it", () => {
    assert.deepEqual(searchedForms("users/alice"), ["users/alice"]);
    assert.deepEqual(searchedForms("users/ad\0min"), ["users/ad\\u0000min"]);
    const long = "r".repeat(COLUMN_CHARS + 1);
    assert.deepEqual(searchedForms(long), [long, boundedText(long, COLUMN_CHARS)]);
    const stored = boundedText(long, COLUMN_CHARS);
    assert.ok(searchedForms(stored).includes(stored), "a stored value copied from a record finds itself");
    assert.equal(searchedPrefix("projects/\0"), "projects/\\u0000");
    assert.equal(searchedPrefix(long).length, COLUMN_CHARS);
  });
});
