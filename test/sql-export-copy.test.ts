// A PostgreSQL CSV export of a SELECT reads its rows through COPY … TO
// STDOUT in text format and writes each line straight as its CSV line
// (decision 0131): the file must be byte for byte the one the value path
// writes from the same rows, for every type and every awkward value (tabs,
// backslashes, line breaks, quotes, unicode, NULL against the empty string
// and the text \N, bytea, floats at their edges, arrays, json), whatever
// extra_float_digits the target prints floats with; the limit and the byte
// bound end the file at the same row, the COPY is cancelled on the target,
// and a refusal is the target's message.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import type { Column, Row } from "../shared/sql-editor/cells.ts";
import { CopyCsvChunks } from "../shared/sql-editor/export/copy-chunks.ts";
import { ReadConnections } from "../shared/sql-editor/session/read-connections.ts";
import { type ReadPlace, withReadSession } from "../shared/sql-editor/session/read-session.ts";
import { adminQuery } from "./helpers/db.ts";
import { exportBytes } from "./helpers/export-cells.ts";
import { createPgTarget, pgServerConnection } from "./helpers/instances.ts";

const EVERY_TYPE = `select * from (values
  (1, true, 1::int2, 2::int4, 9223372036854775807::int8, 26::oid, 1.5::float4, 0.1::float8, 'NaN'::float8, 12345678901234567890.123456789::numeric,
   'quote " and, comma'::text, 'v'::varchar, 'c'::char(3), ''::text, '\\x00ff5c09'::bytea, '2024-05-06 07:08:09.123456'::timestamp,
   '2024-05-06 07:08:09.5+05:30'::timestamptz, '2024-05-06'::date, '07:08:09'::time, '1 day 02:03:04'::interval, '{"a": [1, "b\\n\\"q\\""]}'::json,
   '{"b": "x\\\\y"}'::jsonb, array[1, null, 3], array['a,b', 'c"d', E'e\\\\f', 'g h', ''], '6f1e2d3c-4b5a-4978-8695-a4b3c2d1e0f9'::uuid, '192.168.0.1/24'::inet,
   'infinity'::timestamp, 'Infinity'::float8, 1e300::float8, '\\N'::text),
  (2, false, '-32768'::int2, '-2147483648'::int4, '-9223372036854775808'::int8, 0::oid, '-0'::float4, 1e21::float8, '-Infinity'::float8, -0.5::numeric,
   E'line\\nbreak\\r\\nünïcødé ☃ 😀\\ttab'::text, ''::varchar, ' '::char(3), E'C:\\\\path\\\\N \\\\t'::text, ''::bytea, '0044-03-15 12:00:00 BC'::timestamp,
   '1970-01-01 00:00:00+00'::timestamptz, '-infinity'::date, '24:00:00'::time, '-1 mon'::interval, 'null'::json,
   '[]'::jsonb, '{}'::int4[], array[null::text], null::uuid, '::1'::inet, '-infinity'::timestamp, '-0'::float8, -1e-300::float8, E'\\b\\f\\v\\x01,'::text),
  (3, null::bool, null::int2, null::int4, null::int8, null::oid, 1e-7::float4, 123456789012345680000::float8, 1e15::float8, null::numeric,
   null::text, null::varchar, null::char(3), null::text, null::bytea, null::timestamp, null::timestamptz, null::date, null::time, null::interval,
   null::json, null::jsonb, null::int4[], null::text[], null::uuid, null::inet, null::timestamp, 3.4028235e38::float4, 0.30000000000000004::float8, E'"'::text)
) as t(k, b, i2, i4, i8, o, f4, f8, f8s, n, t, vc, ch, e, by, ts, tz, d, tm, iv, j, jb, ai, at, u, ip, tsi, f8i, f8e, odd) order by k`;

/** Enough rows to fill many chunks, each with an escape or a quote now and then. */
const MANY_ROWS = `select g as id, md5(g::text) as name, g * 1.5::float8 as ratio, timestamptz '2026-01-01 00:00:00+00' + g * interval '1 second' as at,
  g % 3 = 0 as flag, (g % 100000) / 100.0 as amount, case when g % 7 = 0 then E'a\\tb,' || g when g % 11 = 0 then null else 'x' || g end as note
  from generate_series(1, 30000) g`;

const connections = new ReadConnections();
const options = { schema: "", timeoutMs: undefined, signal: new AbortController().signal };
let target: Awaited<ReturnType<typeof createPgTarget>>;
let place: ReadPlace;

before(async () => {
  target = await createPgTarget();
  place = { connections, engine: "POSTGRES", config: pgServerConnection(), database: target.name };
});
after(async () => {
  await connections.close();
  await target.drop();
});

interface Bound {
  limit?: number;
  maxBytes?: number;
}

/** The file read through COPY, as Export writes it, and how far it got. */
async function copiedFile(statement: string, bound: Bound = {}) {
  return withReadSession(place, options, async (session) => {
    const csv = new CopyCsvChunks({ limit: bound.limit, maxBytes: bound.maxBytes, name: "the bound" });
    const reading = session.copy!(statement, csv).then(
      ({ error }) => csv.end(error ? new Error(error) : undefined),
      (failure: unknown) => csv.end(failure),
    );
    const chunks: Buffer[] = [];
    try {
      for await (const chunk of csv.chunks()) chunks.push(chunk);
    } finally {
      await reading;
    }
    return { bytes: Buffer.concat(chunks), ...csv.progress };
  });
}

/** The file written from the same rows read as values (the path Query and the other formats take). */
async function valueFile(statement: string, bound: Bound = {}) {
  const read = { columns: [] as Column[], rows: [] as Row[] };
  await withReadSession(place, options, async (session) => {
    const sink = { columns: (columns: Column[]) => void (read.columns = columns), rows: (batch: Row[]) => (read.rows.push(...batch), true) };
    assert.equal((await session.read(statement, sink, 1000)).error, "");
  });
  return exportBytes("CSV", read.columns, read.rows.slice(0, bound.limit), { maxBytes: bound.maxBytes, boundName: "the bound" });
}

async function assertSameFile(statement: string, bound: Bound = {}) {
  const copied = await copiedFile(statement, bound);
  const valued = await valueFile(statement, bound);
  assert.equal(copied.bytes.toString("utf8"), valued.bytes.toString("utf8"));
  assert.ok(copied.bytes.equals(valued.bytes));
  assert.deepEqual([copied.rows, copied.stoppedBy], [valued.rows, valued.stoppedBy]);
  return copied;
}

describe("a PostgreSQL CSV export through COPY", () => {
  it("writes the value path's bytes for every type and awkward value", async () => {
    const file = await assertSameFile(EVERY_TYPE);
    const text = file.bytes.toString("utf8");
    assert.match(text, /,"quote "" and, comma",/);
    assert.match(text, /,"line\nbreak\r\nünïcødé ☃ 😀\ttab",/);
    assert.match(text, /,C:\\path\\N \\t,/);
    assert.match(text, /,AP9cCQ==,/);
    assert.match(text, /,\\N\r\n/);
    assert.match(text, /,""""\r\n$/);
    assert.equal(file.rows, 3);
  });

  it("writes many rows across chunks, and a result with no rows or no columns", async () => {
    assert.equal((await assertSameFile(MANY_ROWS)).rows, 30_000);
    assert.equal((await assertSameFile("select 1 as a, 'x' as b where false")).bytes.toString(), "a,b\r\n");
    assert.equal((await assertSameFile("select from generate_series(1, 3)")).bytes.toString(), "\r\n\r\n\r\n\r\n");
    await assertSameFile("table pg_catalog.pg_am");
    await assertSameFile("with t as (select 1 as a) select * from t -- a trailing comment");
    await assertSameFile("select 1 as a; -- the statement's own semicolon, and a comment after it");
    await assertSameFile("select ')' as a /* ) to stdout */");
  });

  it("prints floats in JavaScript's form whatever extra_float_digits the target prints them with", async () => {
    const floats = "select x::float8 as f8, x::float4 as f4 from unnest(array[0.1, 1/3.0, 2/3.0, 1e-5, 1e16, 1e30, -123.456, 0.30000000000000004]) x";
    for (const digits of [-15, 0, 3]) {
      await adminQuery(`alter database ${target.name} set extra_float_digits = ${digits}`);
      await connections.close(); // the setting reaches new connections
      await assertSameFile(floats);
    }
    await adminQuery(`alter database ${target.name} reset extra_float_digits`);
    await connections.close();
  });

  it("ends at the limit and at the byte bound on the same row as the value path, the COPY cancelled", async () => {
    const limited = await assertSameFile(MANY_ROWS, { limit: 25 });
    assert.deepEqual([limited.rows, limited.stoppedBy], [25, ""]);
    const bounded = await assertSameFile(MANY_ROWS, { maxBytes: 200_000 });
    assert.equal(bounded.stoppedBy, "the bound");
    assert.ok(bounded.rows > 1000 && bounded.bytes.length <= 200_000, `${bounded.rows} rows, ${bounded.bytes.length} bytes`);

    const started = performance.now();
    const huge = await copiedFile("select a, b, c, 'export_copy_marker' from generate_series(1, 1000) a, generate_series(1, 1000) b, generate_series(1, 1000) c", { limit: 10 });
    assert.equal(huge.rows, 10);
    assert.ok(performance.now() - started < 10_000, "the COPY was cancelled, not read to its end");
    const running = await target.query("select count(*)::int as n from pg_stat_activity where state = 'active' and query like '%export_copy_marker%' and pid <> pg_backend_pid()");
    assert.equal(running.rows[0].n, 0);
  });

  it("answers the target's refusal, before the first line and mid-file", async () => {
    await assert.rejects(copiedFile("select * from no_such_table"), /relation "no_such_table" does not exist/);
    await assert.rejects(copiedFile("select 1 / (g - 20000) from generate_series(1, 30000) g"), /division by zero/);
    assert.equal((await copiedFile("select 1 as one")).bytes.toString(), "one\r\n1\r\n", "the session is usable after a refusal");
  });
});
