// Export (contract §14.1, §14.4, §18.10): one read statement's rows as a
// file, through the guard and the read-only session Query uses. Rows stream
// from the target (a PostgreSQL cursor, a MySQL streaming query) with
// backpressure into the format's encoder, so memory stays flat whatever the
// row count; at most `limit` rows (0: all). sql_result_size bounds the file
// at a whole row: the file is ended, whole, and the call then fails with
// resource_exhausted naming the bound. Nothing is sent before the statement
// has answered its first rows, so its refusal is a proper error. Values the
// caller may not see are masked as in Query (contract §19.2). The audit
// detail and the query history entry (EXPORT) are written with the call's
// record when it ends, whatever the outcome (export-track.ts).
import { type AuditAtEnd, readWorkspaceProfile } from "../../governance/index.ts";
import { invalidArgument, resourceExhausted } from "../../platform/index.ts";
import type { Column, Row } from "../cells.ts";
import { CopyCsvChunks } from "../export/copy-chunks.ts";
import { CSV_CONTENT_TYPE, exportFile, type ExportFile, type ExportFormat, type ExportOptions } from "../export/export-file.ts";
import { exportTableName } from "../export/export-table.ts";
import { type MaskingReason, type ResultMasker, shownError } from "../masking/result-masking.ts";
import { openReadSession, type ReadPlace, type ReadSession, type ReadSessionOptions } from "../session/read-session.ts";
import { RowChannel } from "../session/row-channel.ts";
import { ExportTrack } from "./export-track.ts";
import type { QueryDeps } from "./query.ts";
import { type ReadRequest, readTarget } from "./read-target.ts";

/** Rows read from the target at a time, at most. */
const BATCH_ROWS = 4096;

export interface ExportRequest extends ReadRequest {
  format: ExportFormat;
  /** Rows at most; 0 = all. */
  limit: bigint;
  /** The call's: aborting it cancels the statement on the target. */
  signal: AbortSignal;
}

/** A piece of the file, with the file's media type and name, and why each of its columns is masked. */
export interface ExportChunk {
  bytes: Uint8Array;
  contentType: string;
  filename: string;
  /** Per column of the file, why its values are masked (an empty reason: shown as is); [] when nothing is hidden from the caller. */
  masked: MaskingReason[];
}

/** Where and what the export reads, checked before the target is reached. */
interface ExportPlan {
  place: ReadPlace;
  statement: string;
  limit: number | undefined;
  masker: ResultMasker | undefined;
  /** A PostgreSQL CSV of a SELECT, nothing masked: read through COPY (0131). */
  copy: boolean;
  file: ExportOptions;
  session: ReadSessionOptions;
}

export async function* exportStatement(deps: QueryDeps, audit: AuditAtEnd, request: ExportRequest): AsyncGenerator<ExportChunk> {
  const plan = await planExport(deps, request);
  const track = new ExportTrack(audit, request);
  try {
    const session = await openReadSession(plan.place, plan.session);
    try {
      yield* sessionChunks(session, plan, request.format, track);
    } finally {
      await session.close();
    }
    track.succeeded();
  } catch (error) {
    track.failed(error);
    throw error;
  } finally {
    track.end();
  }
}

async function planExport(deps: QueryDeps, request: ExportRequest): Promise<ExportPlan> {
  const limit = exportLimit(request.limit);
  const { ref, config, statements, masker } = await readTarget(deps, request);
  if (statements.length !== 1) throw invalidArgument(`statement: Export takes one statement, got ${statements.length}`);
  const statement = statements[0]!;
  const { sqlResultSizeBytes, queryTimeoutMs } = await readWorkspaceProfile(deps.settings);
  const table = request.format === "SQL" ? exportTableName(config.engine, statement.tree) : [];
  // A PostgreSQL CSV takes the cells as printed, straight into its fields (0124); masking works on values.
  const printed = request.format === "CSV" && config.engine === "POSTGRES" && !masker;
  // COPY takes a SELECT (TABLE, VALUES, WITH … SELECT), not an EXPLAIN or a SHOW (0131).
  const copy = printed && statement.tree !== undefined && "SelectStmt" in statement.tree;
  return {
    place: { connections: deps.connections, engine: config.engine, config, database: ref.name },
    statement: statement.text,
    limit,
    masker,
    copy,
    file: { maxBytes: sqlResultSizeBytes, boundName: `sql_result_size (${sqlResultSizeBytes} bytes)`, engine: config.engine, table, printed },
    session: { schema: request.schema, timeoutMs: queryTimeoutMs, signal: request.signal, selectLimit: limit === undefined ? undefined : limit + 1, printed },
  };
}

/** The limit asked for: 0 is every row; a negative one is refused. */
function exportLimit(limit: bigint): number | undefined {
  if (limit < 0n) throw invalidArgument(`limit must be 0 (every row) or more, got ${limit}`);
  return limit === 0n || limit > BigInt(Number.MAX_SAFE_INTEGER) ? undefined : Number(limit);
}

/** The file's chunks as the statement's rows arrive; the read is stopped when they are no longer wanted. */
async function* sessionChunks(session: ReadSession, plan: ExportPlan, format: ExportFormat, track: ExportTrack): AsyncGenerator<ExportChunk> {
  const source = plan.copy && session.copy ? copiedFile(session, plan) : readFile(session, plan, format);
  try {
    const { file, reasons } = await source.file;
    const filename = `${plan.place.database}-${fileTime(new Date())}.${file.extension}`;
    for await (const bytes of file.chunks) {
      track.sent(file.progress.rows, bytes.byteLength);
      yield { bytes, contentType: file.contentType, filename, masked: reasons };
    }
    if (file.progress.stoppedBy) throw boundReached(file.progress.stoppedBy, file.progress.rows);
  } finally {
    source.stop();
    await source.reading;
  }
}

/** A file being written from a read under way. */
interface FileSource {
  /** Once the statement has described its result (a failure before then rejects). */
  file: Promise<{ file: ExportFile; reasons: MaskingReason[] }>;
  /** Settles when the read is over. */
  reading: Promise<void>;
  /** The file is no longer wanted: the read stops. */
  stop(): void;
}

/** Rows read as values or as printed, in batches, through the format's encoder. */
function readFile(session: ReadSession, plan: ExportPlan, format: ExportFormat): FileSource {
  const channel = new RowChannel(plan.limit);
  const reading = session.read(plan.statement, channel, Math.min(BATCH_ROWS, (plan.limit ?? BATCH_ROWS) + 1)).then(
    ({ error }) => channel.end(refusal(plan, error)),
    (failure: unknown) => channel.end(failure),
  );
  const file = channel.described.then((described) => {
    const { columns, batches, reasons } = masked(plan, described, channel.batches());
    return { file: exportFile(format, columns, batches, plan.file), reasons };
  });
  return { file, reading, stop: () => channel.stop() };
}

/** A CSV written straight from COPY's lines (0131); nothing is masked. */
function copiedFile(session: ReadSession, plan: ExportPlan): FileSource {
  const csv = new CopyCsvChunks({ limit: plan.limit, maxBytes: plan.file.maxBytes, name: plan.file.boundName });
  const reading = session.copy!(plan.statement, csv).then(
    ({ error }) => csv.end(refusal(plan, error)),
    (failure: unknown) => csv.end(failure),
  );
  const file: ExportFile = { contentType: CSV_CONTENT_TYPE, extension: "csv", chunks: csv.chunks(), progress: csv.progress };
  return { file: Promise.resolve({ file, reasons: [] }), reading, stop: () => csv.stop() };
}

/** The target's refusal of the statement ("" when none) as the call's error. */
function refusal(plan: ExportPlan, error: string): Error | undefined {
  return error ? invalidArgument(`statement: the target refused it: ${shownError(plan.masker, plan.statement, error)}`) : undefined;
}

interface MaskedRows {
  /** As the file shows them (a masked one is text). */
  columns: Column[];
  /** Hidden values masked. */
  batches: AsyncIterable<Row[]>;
  /** Per column, why it is masked. */
  reasons: MaskingReason[];
}

function masked(plan: ExportPlan, described: Column[], batches: AsyncIterable<Row[]>): MaskedRows {
  const { masker, statement } = plan;
  if (!masker) return { columns: described, batches, reasons: [] };
  const columns = [...described];
  const reasons = masker.mask({ statement, columns, rows: [] });
  return { columns, batches: maskedBatches(batches, (rows) => masker.mask({ statement, columns: [...described], rows })), reasons };
}

async function* maskedBatches(batches: AsyncIterable<Row[]>, mask: (rows: Row[]) => unknown): AsyncGenerator<Row[]> {
  for await (const rows of batches) {
    mask(rows);
    yield rows;
  }
}

function boundReached(bound: string, rows: number): Error {
  return resourceExhausted(`the export reached ${bound}: the file ends after its first ${rows} rows, whole; narrow the statement or set a limit`);
}

/** 2026-11-27T12:14:19.123Z as 20261127T121419Z, for a file name. */
function fileTime(at: Date): string {
  return at.toISOString().replace(/[-:]/g, "").replace(/\.\d+Z$/, "Z");
}
