// SQLService.Export (contract §14.1, §14.4, §18.10): one read statement's
// rows as a downloaded file (docs/decisions/0009-streamed-downloads.md), the
// media type and file name on the first message; values the caller may not
// see are masked below (shared/sql-editor), and the masked columns named in a
// response header (sql-export-masking.ts). Audited at the stream's end; a
// client that goes away cancels the statement on the target.
import type { MessageInitShape } from "@bufbuild/protobuf";
import type { ServiceImpl } from "@connectrpc/connect";
import { ExportRequest_Format, type ExportResponseSchema, type SQLService } from "../../shared/gen/svc/v1/sql_service_pb.js";
import { invalidArgument } from "../../shared/platform/index.ts";
import { type ExportChunk, exportStatement } from "../../shared/sql-editor/index.ts";
import { auditAtEndScope } from "../transport/audit-scope.ts";
import { callerOf } from "../transport/interceptors/authn.ts";
import { MASKED_COLUMNS_HEADER, maskedColumnsHeader } from "./sql-export-masking.ts";
import type { SqlQueryDeps } from "./sql-query-service.ts";

const FORMATS = { [ExportRequest_Format.CSV]: "CSV", [ExportRequest_Format.JSON]: "JSON", [ExportRequest_Format.SQL]: "SQL", [ExportRequest_Format.XLSX]: "XLSX" } as const;

export function sqlExportHandlers(deps: SqlQueryDeps): Pick<ServiceImpl<typeof SQLService>, "export"> {
  return {
    async *export(req, context) {
      const format = FORMATS[req.format as keyof typeof FORMATS];
      if (!format) throw invalidArgument("format is required: CSV, JSON, SQL or XLSX");
      const request = { ...req, format, caller: callerOf(context).name, signal: context.signal };
      let first = true;
      for await (const chunk of exportStatement(deps, auditAtEndScope(context), request)) {
        if (first) {
          const masked = maskedColumnsHeader(chunk.masked);
          if (masked) context.responseHeader.set(MASKED_COLUMNS_HEADER, masked);
        }
        yield toExportResponse(chunk, first);
        first = false;
      }
    },
  };
}

/** The file's media type and name ride on the first message only. */
function toExportResponse(chunk: ExportChunk, first: boolean): MessageInitShape<typeof ExportResponseSchema> {
  return first ? { content: chunk.bytes, contentType: chunk.contentType, filename: chunk.filename } : { content: chunk.bytes };
}
