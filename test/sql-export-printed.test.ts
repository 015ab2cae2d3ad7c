// A PostgreSQL CSV export reads its cells as the target printed them and
// converts each straight to the file's text (decision 0124): the file must
// be byte for byte the one the value path writes, for every type and every
// awkward value — here both paths read the same rows from a real server
// (with the read session's settings), and csv-parse reads the file back.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { parse } from "csv-parse/sync";
import pg from "pg";
import type Cursor from "pg-cursor";
import type { Row } from "../shared/sql-editor/cells.ts";
import { statementCursor, TypeNames } from "../shared/sql-editor/session/pg-cells.ts";
import { EXPORT_DEFAULTS } from "./helpers/export-cells.ts";
import { adminUrl } from "./helpers/db.ts";
import { exportFile } from "../shared/sql-editor/export/export-file.ts";
import { printedText } from "../shared/sql-editor/export/printed-cells.ts";

// Two rows of awkward values and a row of NULLs, one column per type.
const EVERY_TYPE = `select * from (values
  (true, 1::int2, 2::int4, 9223372036854775807::int8, 26::oid, 1.5::float4, 0.1::float8, 'NaN'::float8, 12345678901234567890.123456789::numeric,
   'quote " and, comma'::text, 'v'::varchar, 'c'::char(3), ''::text, '\\x00ff'::bytea, '2024-05-06 07:08:09.123456'::timestamp,
   '2024-05-06 07:08:09.5+05:30'::timestamptz, '2024-05-06'::date, '07:08:09'::time, '1 day 02:03:04'::interval, '{"a": [1, "b"]}'::json,
   '{"b": 2}'::jsonb, array[1, null, 3], array['a,b', 'c"d'], '6f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9'::uuid, '192.168.0.1/24'::inet, 'infinity'::timestamp),
  (false, '-32768'::int2, '-2147483648'::int4, '-9223372036854775808'::int8, 0::oid, '-0'::float4, 1e21::float8, '-Infinity'::float8, -0.5::numeric,
   E'line\\nbreak\\r\\nünïcødé ☃ 😀'::text, '' ::varchar, ' '::char(3), E'C:\\\\path'::text, ''::bytea, '0044-03-15 12:00:00 BC'::timestamp,
   '1970-01-01 00:00:00+00'::timestamptz, '-infinity'::date, '24:00:00'::time, '-1 mon'::interval, 'null'::json,
   '[]'::jsonb, '{}'::int4[], array[null::text], null::uuid, '::1'::inet, '-infinity'::timestamp),
  (null::bool, null::int2, null::int4, null::int8, null::oid, 1e-7::float4, 123456789012345680000::float8, 1e15::float8, null::numeric,
   null::text, null::varchar, null::char(3), null::text, null::bytea, null::timestamp, null::timestamptz, null::date, null::time, null::interval,
   null::json, null::jsonb, null::int4[], null::text[], null::uuid, null::inet, null::timestamp)
) as t(b, i2, i4, i8, o, f4, f8, f8s, n, t, vc, ch, e, by, ts, tz, d, tm, iv, j, jb, ai, at, u, ip, tsi)`;

let client: pg.Client;

before(async () => {
  client = new pg.Client({ connectionString: adminUrl() });
  await client.connect();
  await client.query("set bytea_output = hex; set datestyle = iso; set intervalstyle = postgres; set timezone = 'Asia/Kolkata'");
});
after(() => client.end());

function readAll(cursor: Cursor): Promise<{ rows: Row[]; fields: pg.FieldDef[] }> {
  return new Promise((resolve, reject) => cursor.read(100, (error, rows, result) => (error ? reject(error) : resolve({ rows: rows as Row[], fields: result.fields }))));
}

/** The statement's CSV file, its rows read as values or as printed. */
async function csvOf(statement: string, printed: boolean): Promise<Buffer> {
  const cursor = client.query(statementCursor(statement, printed));
  const { rows, fields } = await readAll(cursor);
  await new Promise((resolve) => cursor.close(resolve));
  const file = exportFile("CSV", new TypeNames().columns(fields), (async function* () { yield rows; })(), { ...EXPORT_DEFAULTS, printed });
  const chunks: Uint8Array[] = [];
  for await (const chunk of file.chunks) chunks.push(chunk);
  return Buffer.concat(chunks);
}

describe("a PostgreSQL CSV export from printed cells", () => {
  it("writes the value path's bytes for every type", async () => {
    const printed = await csvOf(EVERY_TYPE, true);
    assert.equal(printed.toString("utf8"), (await csvOf(EVERY_TYPE, false)).toString("utf8"));
    const [header, first, second, nulls] = parse(printed) as string[][];
    assert.equal(header!.length, 26);
    assert.deepEqual(first!.slice(0, 10), ["true", "1", "2", "9223372036854775807", "26", "1.5", "0.1", "NaN", "12345678901234567890.123456789", 'quote " and, comma']);
    assert.deepEqual([first![13], first![15]], ["AP8=", "2024-05-06 07:08:09.5+05:30"]);
    assert.deepEqual([second![0], second![5], second![6], second![7], second![9], second![13]], ["false", "0", "1e+21", "-Infinity", "line\nbreak\r\nünïcødé ☃ 😀", ""]);
    assert.deepEqual(nulls!.slice(5, 8), ["1e-7", "123456789012345680000", "1000000000000000"]);
  });

  it("prints floats in JavaScript's form whatever extra_float_digits the target prints them with", async () => {
    const floats = "select x::float8 as f8, x::float4 as f4 from unnest(array[0.1, 1/3.0, 2/3.0, 1e-5, 1e16, 1e30, -123.456, 0.30000000000000004]) x";
    for (const digits of [-15, 0, 1, 3]) {
      await client.query(`set extra_float_digits = ${digits}`);
      assert.equal((await csvOf(floats, true)).toString("utf8"), (await csvOf(floats, false)).toString("utf8"), `extra_float_digits = ${digits}`);
    }
    await client.query("reset extra_float_digits");
  });

  it("keeps a float's printed text only where JavaScript prints the same", () => {
    const floatText = printedText("double");
    const samples = ["0", "-0", "1", "100", "1.5", "-1.25", "0.1", "0.000001", "0.0000001", "1e-07", "1e+15", "123456789012345", "1234567890123456", "9999999999999999", "0.30000000000000004", "1.50", "1e21"];
    for (let i = 0; i < 20_000; i++) {
      const value = (Math.random() - 0.5) * 10 ** Math.floor(Math.random() * 40 - 20);
      samples.push(value.toPrecision(1 + (i % 17)), String(value), value.toFixed(i % 12));
    }
    for (const sample of samples) assert.equal(floatText(sample), String(Number(sample)), sample);
  });
});
