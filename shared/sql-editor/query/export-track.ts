// What an export leaves in its audit record and its query history entry
// (contract §8.1, §19.1): the database, format, rows and bytes sent and the
// duration — never the data — and, in the history, how it ended. Both are
// written with the call's record when it ends (AuditAtEnd.withRecord):
// completed, refused by the target or a bound, or left by the client.
import type { AuditAtEnd } from "../../governance/index.ts";
import { historyError, keepInHistory } from "../history/history-entry.ts";

const LEFT = "the client went away before the export ended";

export class ExportTrack {
  private readonly detail: { database: string; format: string; rowCount: number; bytes: number; durationMs: number };
  private readonly started = performance.now();
  /** How it ended ("" when whole); undefined while it runs. */
  private error: string | undefined;

  constructor(audit: AuditAtEnd, request: { name: string; statement: string; format: string; caller: string }) {
    this.detail = { database: request.name, format: request.format, rowCount: 0, bytes: 0, durationMs: 0 };
    audit.detail = this.detail;
    keepInHistory(audit, "EXPORT", request, () => ({ durationMs: this.detail.durationMs, rowCount: this.detail.rowCount, error: this.error ?? LEFT }));
  }

  /** A chunk went out; `rows` is the count written so far. */
  sent(rows: number, bytes: number): void {
    this.detail.rowCount = rows;
    this.detail.bytes += bytes;
  }

  succeeded(): void {
    this.error = "";
  }

  failed(error: unknown): void {
    this.error = historyError(error);
  }

  end(): void {
    this.detail.durationMs = Math.round(performance.now() - this.started);
  }
}
