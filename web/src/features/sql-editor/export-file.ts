// Export (contract §14.1) through the console's Connect transport: the
// server's stream of chunks gathered into a Blob and handed to the browser
// as a download under the server's file name (decision 0115). The masked
// columns come in the X-Svc-Masked-Columns header (decision 0104).
import { type ExportRequest_Format, SQLService } from "@gen/svc/v1/sql_service_pb.js";
import { client } from "../../api/clients.ts";
import { type DownloadedFile, downloadChunks } from "../../api/download.ts";

export interface ExportTarget {
  name: string;
  statement: string;
  format: ExportRequest_Format;
}

export interface ExportedFile extends DownloadedFile {
  /** How many columns the server masked in the file. */
  maskedColumns: number;
}

export async function downloadExport(target: ExportTarget, signal: AbortSignal): Promise<ExportedFile> {
  let maskedHeader: string | null = null;
  const stream = client(SQLService).export(target, { signal, onHeader: (headers) => (maskedHeader = headers.get("x-svc-masked-columns")) });
  // The headers arrive with the stream, so they are known once it is read through.
  const file = await downloadChunks(stream, "export");
  return { ...file, maskedColumns: maskedCount(maskedHeader) };
}

/** The header's entries are `{columns: [..], semanticType, reason}`, one per reason. */
function maskedCount(header: string | null): number {
  if (!header) return 0;
  try {
    return (JSON.parse(header) as { columns?: number[] }[]).reduce((sum, entry) => sum + (entry.columns?.length ?? 0), 0);
  } catch {
    return 0;
  }
}
