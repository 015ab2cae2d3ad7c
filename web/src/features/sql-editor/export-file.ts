// Export (contract §14.1) through the console's Connect transport: the
// server's stream of chunks gathered into a Blob and handed to the browser
// as a download under the server's file name (decision 0115). The masked
// columns come in the X-Svc-Masked-Columns header (decision 0104).
import { type ExportRequest_Format, SQLService } from "@gen/svc/v1/sql_service_pb.js";
import { client } from "../../api/clients.ts";

export interface ExportTarget {
  name: string;
  statement: string;
  format: ExportRequest_Format;
}

export interface ExportedFile {
  filename: string;
  bytes: number;
  /** How many columns the server masked in the file. */
  maskedColumns: number;
}

export async function downloadExport(target: ExportTarget, signal: AbortSignal): Promise<ExportedFile> {
  const parts: Uint8Array<ArrayBuffer>[] = [];
  let contentType = "application/octet-stream";
  let filename = "export";
  let maskedHeader: string | null = null;
  const stream = client(SQLService).export(target, { signal, onHeader: (headers) => (maskedHeader = headers.get("x-svc-masked-columns")) });
  for await (const chunk of stream) {
    if (chunk.contentType) contentType = chunk.contentType;
    if (chunk.filename) filename = chunk.filename;
    parts.push(chunk.content as Uint8Array<ArrayBuffer>);
  }
  const blob = new Blob(parts, { type: contentType });
  saveBlob(blob, filename);
  return { filename, bytes: blob.size, maskedColumns: maskedCount(maskedHeader) };
}

function saveBlob(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement("a");
  link.href = url;
  link.download = filename;
  link.click();
  // The download has started from the URL by the next task; the memory can go after that.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
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
