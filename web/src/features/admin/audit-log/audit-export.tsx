// The audit search's export (contract §8.3): the records the filter finds,
// as a CSV or NDJSON file the server streams, saved by the browser.
import { ExportAuditLogsRequest_Format as Format, AuditLogService } from "@gen/svc/v1/audit_log_service_pb.js";
import { useState } from "react";
import { client } from "../../../api/clients.ts";
import { downloadChunks } from "../../../api/download.ts";
import { Alert } from "../../../components/alert.tsx";
import { useAction } from "../../../hooks/use-action.ts";

const FORMATS = [
  { format: Format.CSV, label: "Export CSV" },
  { format: Format.NDJSON, label: "Export NDJSON" },
];

export function AuditExport({ filter }: { filter: string }) {
  const action = useAction();
  const [done, setDone] = useState<string>();
  const exportAs = (format: Format) =>
    action.run(async () => {
      setDone(undefined);
      const file = await downloadChunks(client(AuditLogService).exportAuditLogs({ filter, format }), "audit-log");
      setDone(`Saved ${file.filename} (${file.bytes.toLocaleString()} bytes).`);
    });
  return (
    <div className="audit-export">
      <div className="actions">
        {FORMATS.map(({ format, label }) => (
          <button key={label} type="button" className="button" disabled={action.pending} onClick={() => void exportAs(format)}>
            {label}
          </button>
        ))}
      </div>
      {action.error && <Alert tone="error">{action.error}</Alert>}
      {done && <Alert tone="success">{done}</Alert>}
    </div>
  );
}
