// Error messages quote what a client sent in a bounded, escaped form.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { QUOTED_PREFIX, quoted } from "./errors.ts";

describe("quoted", () => {
  it("quotes a short value as it is", () => {
    assert.equal(quoted("projects/alpha"), '"projects/alpha"');
  });

  it("escapes quotes and control characters, NUL included", () => {
    assert.equal(quoted('a"b\u0000c\n'), '"a\\"b\\u0000c\\n"');
  });

  it("cuts a long value to a prefix and gives its length", () => {
    const text = `${"e".repeat(5 * 1024 * 1024)}@example.com`;
    const shown = quoted(text);
    assert.equal(shown, `"${"e".repeat(QUOTED_PREFIX)}…" (${text.length} characters)`);
  });
});
