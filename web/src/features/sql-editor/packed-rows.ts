// A Query result's rows kept as their protobuf encoding in one buffer: once
// decoded, 100,000 rows stay over two million small objects, which every
// major garbage collection marks again while the grid scrolls (on two cores
// that marking took the scroll's frames past 50 ms); a buffer and two typed
// arrays are three objects it does not look into. The grid decodes only the
// rows it draws (decision 0114).
import { create, fromBinary, toBinary } from "@bufbuild/protobuf";
import { BinaryReader } from "@bufbuild/protobuf/wire";
import { type QueryResult, QueryResultSchema, type QueryRow, QueryRowSchema } from "@gen/svc/v1/sql_service_pb.js";

export class PackedRows {
  readonly #bytes: Uint8Array;
  /** Where each row's encoding starts and ends in #bytes. */
  readonly #starts: Float64Array;
  readonly #ends: Float64Array;

  constructor(rows: QueryRow[]) {
    // One encoding for all rows (one buffer, not one per row): a QueryResult
    // holding only them, where each is a length-delimited field 4.
    this.#bytes = toBinary(QueryResultSchema, create(QueryResultSchema, { rows }));
    this.#starts = new Float64Array(rows.length);
    this.#ends = new Float64Array(rows.length);
    const reader = new BinaryReader(this.#bytes);
    for (let i = 0; i < rows.length; i++) {
      reader.tag();
      const length = reader.uint32();
      this.#starts[i] = reader.pos;
      this.#ends[i] = reader.pos += length;
    }
  }

  get length(): number {
    return this.#ends.length;
  }

  /** Row `index` (0-based), decoded afresh. */
  row(index: number): QueryRow {
    return fromBinary(QueryRowSchema, this.#bytes.subarray(this.#starts[index], this.#ends[index]));
  }
}

/** A statement's result as the page keeps it: its rows packed, the rest as the server answered. */
export type ShownResult = Omit<QueryResult, "rows"> & { rows: PackedRows };

export function shownResult({ rows, ...rest }: QueryResult): ShownResult {
  return { ...rest, rows: new PackedRows(rows) };
}
