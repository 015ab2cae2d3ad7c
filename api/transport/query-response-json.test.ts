// The Query reply's own JSON writer against protobuf-es's, value kind by value
// kind, edges included: the two must read back as the same JSON.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { create, type MessageInitShape, toJson, toJsonString } from "@bufbuild/protobuf";
import { durationFromMs, NullValue } from "@bufbuild/protobuf/wkt";
import { type QueryResponse, QueryResponseSchema, type RowValue, RowValueSchema } from "../../shared/gen/svc/v1/sql_service_pb.js";
import { jsonText } from "./json-text.ts";
import { queryResponseJson } from "./query-response-json.ts";

type Kind = MessageInitShape<typeof RowValueSchema>["kind"];

const value = (kind: Kind): RowValue => create(RowValueSchema, { kind });
const timestamp = (seconds: bigint, nanos: number, offsetSeconds?: number): RowValue =>
  value({ case: "timestampValue", value: { value: { seconds, nanos }, ...(offsetSeconds === undefined ? {} : { offsetSeconds }) } });

const EDGES: RowValue[] = [
  value({ case: "nullValue", value: NullValue.NULL_VALUE }),
  value({ case: "boolValue", value: true }),
  value({ case: "boolValue", value: false }),
  value({ case: "int64Value", value: "0" }),
  value({ case: "int64Value", value: "-9223372036854775808" }),
  value({ case: "int64Value", value: "9223372036854775807" }),
  ...[0, -0, 1.5, -2.25e-7, 1e308, 5e-324, Number.MAX_SAFE_INTEGER, NaN, Infinity, -Infinity].map((n) => value({ case: "doubleValue", value: n })),
  ...["", "plain", 'quote " backslash \\ slash /', "tab\tnewline\ncr\r\u0000\u001f\u007f", "é 日本 🚀", "\ud800 lone \udfff", "</script>"].map((s) =>
    value({ case: "stringValue", value: s }),
  ),
  value({ case: "bytesValue", value: new Uint8Array() }),
  value({ case: "bytesValue", value: new Uint8Array([0, 1, 2, 250, 251, 252, 253, 254, 255]) }),
  timestamp(0n, 0),
  timestamp(1_700_000_000n, 123_000_000, 0),
  timestamp(1_700_000_000n, 123_456_000, 19_800),
  timestamp(1_700_000_000n, 123_456_789, -3_600),
  timestamp(-1n, 999_999_999),
  timestamp(-62_135_596_800n, 0), // 0001-01-01T00:00:00Z
  timestamp(253_402_300_799n, 1), // 9999-12-31T23:59:59.000000001Z
  timestamp(951_782_400n, 0), // 2000-02-29
  timestamp(-2_203_891_200n, 0), // 1900-02-28 (1900 has no 29 February)
  timestamp(-11_676_096_000n, 500_000_000), // 1600-01-01
  ...Array.from({ length: 400 }, (_, i) => timestamp(BigInt(-62_135_596_800 + Math.floor(((i * 7919) % 400) * 790_000_000.5)), (i * 104_729) % 1_000_000_000)),
  value({ case: "timestampValue", value: {} }),
  value({ case: "timestampValue", value: { offsetSeconds: 0 } }),
  value(undefined),
];

const RESULT = {
  statement: "select * from t",
  columnNames: ["a", "b"],
  columnTypeNames: ["INT8", "TEXT"],
  rowsCount: 3n,
  truncated: true,
  latency: durationFromMs(12.5),
  masked: [{ semanticType: "", reason: "" }, { semanticType: "email", reason: "masked by policy" }],
};

/** Both writers' JSON text, read back. */
const both = (response: QueryResponse) => ({
  own: JSON.parse(queryResponseJson(response)) as unknown,
  protobuf: JSON.parse(toJsonString(QueryResponseSchema, response)) as unknown,
});

describe("the Query reply's JSON", () => {
  it("writes every kind of value, edges included, as protobuf-es does", () => {
    const rows = [{ values: EDGES }, { values: [] }, { values: EDGES.slice().reverse() }];
    const { own, protobuf } = both(create(QueryResponseSchema, { results: [{ ...RESULT, rows }] }));
    assert.deepEqual(own, protobuf);
  });

  it("writes results without rows, failed ones and empty replies as protobuf-es does", () => {
    for (const results of [[], [{}], [{ ...RESULT }], [{ statement: "select 1/0", error: "division by zero" }, { ...RESULT, rows: [{ values: EDGES.slice(0, 2) }] }]]) {
      const { own, protobuf } = both(create(QueryResponseSchema, { results }));
      assert.deepEqual(own, protobuf, JSON.stringify(results, (_key, v: unknown) => (typeof v === "bigint" ? String(v) : v)));
    }
  });

  it("refuses a timestamp proto3 JSON cannot carry, as protobuf-es does", () => {
    for (const bad of [timestamp(-62_135_596_801n, 0), timestamp(253_402_300_800n, 0), timestamp(0n, -1), timestamp(0n, 1_000_000_000)]) {
      const response = create(QueryResponseSchema, { results: [{ rows: [{ values: [bad] }] }] });
      assert.throws(() => toJson(QueryResponseSchema, response));
      assert.throws(() => queryResponseJson(response));
    }
  });

  it("is the writer both JSON forms use for a Query reply", () => {
    const response = create(QueryResponseSchema, { results: [{ ...RESULT, rows: [{ values: EDGES }] }] });
    assert.equal(jsonText(QueryResponseSchema, response), queryResponseJson(response));
    assert.notEqual(jsonText(QueryResponseSchema, response), toJsonString(QueryResponseSchema, response), "the rows come last in the reply's own writer");
  });
});
