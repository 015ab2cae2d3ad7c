// The audit log (contract §8): records found by the filter builder, newest
// first, page by page, each with its details on demand; holders of
// bb.auditLogs.export may save what the filter finds as a file.
import { type AuditLog, AuditLog_Severity, AuditLogService } from "@gen/svc/v1/audit_log_service_pb.js";
import { useState } from "react";
import { client } from "../../../api/clients.ts";
import { ListFooter } from "../../../components/list-footer.tsx";
import { ListTable } from "../../../components/list-table.tsx";
import { TimeText } from "../../../components/time-text.tsx";
import { useDocumentTitle } from "../../../hooks/use-document-title.ts";
import { usePages } from "../../../hooks/use-pages.ts";
import { usePermissions, WORKSPACE } from "../../iam/use-permissions.ts";
import { AuditCriteriaForm } from "./audit-criteria-form.tsx";
import { AuditExport } from "./audit-export.tsx";
import { auditFilter, NO_CRITERIA } from "./audit-filter.ts";

export function AuditLogPage() {
  useDocumentTitle("Audit log");
  const [filter, setFilter] = useState(auditFilter(NO_CRITERIA));
  const permissions = usePermissions(WORKSPACE, ["bb.auditLogs.export"]);
  const pages = usePages(
    async (pageToken, signal) => {
      const reply = await client(AuditLogService).searchAuditLogs({ filter, pageToken, pageSize: 50 }, { signal });
      return { items: reply.auditLogs, nextPageToken: reply.nextPageToken };
    },
    [filter],
  );
  return (
    <section aria-labelledby="audit-heading" className="page">
      <h1 id="audit-heading">Audit log</h1>
      <AuditCriteriaForm onSearch={(criteria) => setFilter(auditFilter(criteria))} />
      <div className="page-head">
        <p className="hint">
          Filter: <code>{filter || "(none)"}</code>
        </p>
        {permissions.can("bb.auditLogs.export") && <AuditExport filter={filter} />}
      </div>
      {pages.items.length > 0 && (
        <ListTable columns={["Time", "Actor", "Action", "Resource", "Outcome", "Details"]}>
          {pages.items.map((record) => (
            <AuditRow key={record.name} record={record} />
          ))}
        </ListTable>
      )}
      <ListFooter pages={pages} empty="No record matches." />
    </section>
  );
}

function AuditRow({ record }: { record: AuditLog }) {
  const code = record.status?.code ?? "";
  return (
    <tr>
      <td>
        <TimeText time={record.createTime} />
      </td>
      <td>{record.actor}</td>
      <td>
        <code>{record.action}</code>
      </td>
      <td className="wrap">{record.resource}</td>
      <td>
        <span className={`badge ${code === "ok" ? "outcome-ok" : "outcome-refused"}`}>{code}</span>
        {record.status?.message && <span className="hint"> {record.status.message}</span>}
      </td>
      <td>
        <details>
          <summary>More</summary>
          <dl className="record-facts">
            <dt>Method</dt>
            <dd>{record.method || "–"}</dd>
            <dt>Severity</dt>
            <dd>{AuditLog_Severity[record.severity]}</dd>
            <dt>Client IP</dt>
            <dd>{record.actorIp || "–"}</dd>
            <dt>Correlation ID</dt>
            <dd>
              <code>{record.correlationId}</code>
            </dd>
          </dl>
          {record.request && <pre className="json">{record.request}</pre>}
        </details>
      </td>
    </tr>
  );
}
