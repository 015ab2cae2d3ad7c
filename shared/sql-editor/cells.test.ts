import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { fitsInt64, instantOf, Timestamp } from "./cells.ts";

describe("instantOf", () => {
  it("keeps microseconds and the offset the value was printed in", () => {
    assert.deepEqual(instantOf(new Timestamp("2024-05-06 07:08:09.123456+05:30", true)), {
      seconds: BigInt(Date.UTC(2024, 4, 6, 1, 38, 9) / 1000),
      nanos: 123_456_000,
      offsetSeconds: 19_800,
    });
    assert.deepEqual(instantOf(new Timestamp("1969-12-31 23:59:59-01", true)), { seconds: 3599n, nanos: 0, offsetSeconds: -3600 });
  });

  it("reads a value without a zone as UTC and gives it no offset", () => {
    assert.deepEqual(instantOf(new Timestamp("0001-01-01 00:00:00.5", false)), { seconds: -62_135_596_800n, nanos: 500_000_000 });
    assert.deepEqual(instantOf(new Timestamp("2000-02-29T12:00:00", false)), { seconds: 951_825_600n, nanos: 0 });
  });

  it("names no instant for infinity, BC dates and MySQL's zero date", () => {
    for (const text of ["infinity", "-infinity", "0044-03-15 12:00:00 BC", "0000-00-00 00:00:00", "10000-01-01 00:00:00"]) {
      assert.equal(instantOf(new Timestamp(text, false)), undefined, text);
    }
  });
});

describe("fitsInt64", () => {
  it("takes every int64 and refuses unsigned values beyond it", () => {
    assert.equal(fitsInt64("-9223372036854775808"), true);
    assert.equal(fitsInt64("9223372036854775807"), true);
    assert.equal(fitsInt64("9223372036854775808"), false);
    assert.equal(fitsInt64("18446744073709551615"), false);
  });
});
