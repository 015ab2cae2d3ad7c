// Durations on input and output (contract §3.3).
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { formatDuration, parseDuration } from "./duration.ts";
import { DomainError } from "./errors.ts";

describe("parseDuration", () => {
  it("reads the short forms of every unit", () => {
    const cases: [string, number][] = [
      ["30s", 30_000],
      ["15m", 900_000],
      ["1h", 3_600_000],
      ["7d", 604_800_000],
      ["90d", 7_776_000_000],
      ["180d", 15_552_000_000],
      ["0s", 0],
    ];
    for (const [text, ms] of cases) assert.equal(parseDuration(text, "ttl"), ms, text);
  });

  it("reads the proto JSON form with up to nine fractional digits", () => {
    assert.equal(parseDuration("3600s", "ttl"), 3_600_000);
    assert.equal(parseDuration("1.5s", "ttl"), 1500);
    assert.equal(parseDuration("0.500s", "ttl"), 500);
    assert.equal(parseDuration("1.1s", "ttl"), 1100);
    assert.equal(parseDuration("0.000000001s", "ttl"), 0.000001);
  });

  it("refuses anything else, naming the field", () => {
    const bad = ["", "30", "s", "1.5m", "-1s", "1w", "1H", " 1s", "1s ", "1.s", ".5s", "1.1234567890s", "1e3s"];
    bad.push("315576000001s", "99999999999999999999999d");
    for (const text of bad) {
      assert.throws(
        () => parseDuration(text, "session_duration"),
        (error: unknown) => {
          assert.ok(error instanceof DomainError, text);
          assert.equal(error.code, "invalid_argument");
          assert.equal(error.message, `session_duration: invalid duration "${text}"; use e.g. 30s, 15m, 1h, 7d`);
          return true;
        },
      );
    }
  });

  it("accepts the longest duration protobuf can carry", () => {
    assert.equal(parseDuration("315576000000s", "ttl"), 315_576_000_000_000);
  });
});

describe("formatDuration", () => {
  it("writes whole seconds without a fraction", () => {
    assert.equal(formatDuration(3_600_000), "3600s");
    assert.equal(formatDuration(0), "0s");
    assert.equal(formatDuration(-0), "0s");
    assert.equal(formatDuration(-1e-10), "0s");
  });

  it("writes 3, 6 or 9 fractional digits as proto JSON does", () => {
    assert.equal(formatDuration(500), "0.500s");
    assert.equal(formatDuration(1500), "1.500s");
    assert.equal(formatDuration(1), "0.001s");
    assert.equal(formatDuration(0.001), "0.000001s");
    assert.equal(formatDuration(1234.5678), "1.234567800s");
    assert.equal(formatDuration(0.000001), "0.000000001s");
    assert.equal(formatDuration(-1500), "-1.500s");
  });

  it("carries a fraction that rounds up to a whole second", () => {
    assert.equal(formatDuration(999.9999999), "1s");
  });

  it("refuses what is not a finite number", () => {
    assert.throws(() => formatDuration(Number.NaN), RangeError);
    assert.throws(() => formatDuration(Number.POSITIVE_INFINITY), RangeError);
  });

  it("round-trips what parseDuration reads", () => {
    for (const text of ["3600s", "0.500s", "1.250s", "0.000001s", "7.000000001s", "604800s"]) {
      assert.equal(formatDuration(parseDuration(text, "ttl")), text);
    }
    assert.equal(formatDuration(parseDuration("7d", "ttl")), "604800s");
  });
});
