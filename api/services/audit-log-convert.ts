// Stored audit records ⇄ svc.v1 AuditLog: the one JSON form of the record
// (shared/audit/audit-json.ts, also written by the stdout mirror and the
// exports) read as the proto message.
import { fromJson, type JsonObject } from "@bufbuild/protobuf";
import { type AuditExportFormat, type AuditRecord, auditRecordJson } from "../../shared/governance/index.ts";
import { AuditLogSchema, ExportAuditLogsRequest_Format, type AuditLog } from "../../shared/gen/svc/v1/audit_log_service_pb.js";
import { invalidArgument } from "../../shared/platform/index.ts";

export function toAuditLog(record: AuditRecord): AuditLog {
  return fromJson(AuditLogSchema, auditRecordJson(record) as JsonObject);
}

const FORMATS: Partial<Record<ExportAuditLogsRequest_Format, AuditExportFormat>> = {
  [ExportAuditLogsRequest_Format.CSV]: "CSV",
  [ExportAuditLogsRequest_Format.JSON]: "JSON",
  [ExportAuditLogsRequest_Format.NDJSON]: "NDJSON",
};

export function exportFormatOf(format: ExportAuditLogsRequest_Format): AuditExportFormat {
  const known = FORMATS[format];
  if (!known) throw invalidArgument("format: required, one of CSV, JSON, NDJSON");
  return known;
}
