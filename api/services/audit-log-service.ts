// AuditLogService (contract §8.3): search in keyset pages, and export as a
// streamed file. The export holds no transaction; its own audit record
// (bb.auditLogs.export, with the query and the number of records sent) is
// written when the stream ends, from the facts stated here.
import type { HandlerContext } from "@connectrpc/connect";
import { exportAuditLogs, parseAuditQuery, searchAuditLogs } from "../../shared/governance/index.ts";
import { AuditLogService, ExportAuditLogsRequest_Format } from "../../shared/gen/svc/v1/audit_log_service_pb.js";
import type { Db } from "../../shared/platform/index.ts";
import { auditAtEndScope } from "../transport/audit-scope.ts";
import { callerOf } from "../transport/interceptors/authn.ts";
import { registration } from "../transport/services.ts";
import { exportFormatOf, toAuditLog } from "./audit-log-convert.ts";

export interface AuditLogDeps {
  db: Db;
}

interface PageRequest {
  filter: string;
  orderBy: string;
  pageSize: number;
  pageToken: string;
}

export function auditLogService(deps: AuditLogDeps) {
  const search = async (req: PageRequest, context: HandlerContext) => {
    const query = parseAuditQuery({ filter: req.filter, orderBy: req.orderBy, caller: callerOf(context).name });
    const page = await searchAuditLogs(deps.db, query, req);
    return { auditLogs: page.records.map(toAuditLog), nextPageToken: page.nextPageToken };
  };
  return registration(AuditLogService, {
    listAuditLogs: search,
    searchAuditLogs: search,
    async *exportAuditLogs(req, context) {
      const audit = auditAtEndScope(context);
      const detail = { filter: req.filter, orderBy: req.orderBy, format: ExportAuditLogsRequest_Format[req.format], rowCount: 0 };
      audit.detail = detail;
      const query = parseAuditQuery({ filter: req.filter, orderBy: req.orderBy, caller: callerOf(context).name });
      const file = exportAuditLogs(deps.db, query, exportFormatOf(req.format), {
        signal: context.signal,
        onProgress: (records) => (detail.rowCount = records),
      });
      let head: { contentType: string; filename: string } | undefined = { contentType: file.contentType, filename: file.filename };
      for await (const content of file.chunks) {
        yield { content, ...head };
        head = undefined;
      }
    },
  });
}
