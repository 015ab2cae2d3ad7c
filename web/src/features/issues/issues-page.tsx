// Issue lists (contract §11.1): the view tabs, and the issues of the view
// newest first, page by page.
import { Issue_ApprovalStatus, Issue_Status, IssueService } from "@gen/svc/v1/issue_service_pb.js";
import { Link, useSearch } from "wouter";
import { client } from "../../api/clients.ts";
import { ListFooter } from "../../components/list-footer.tsx";
import { ListTable } from "../../components/list-table.tsx";
import { TimeText } from "../../components/time-text.tsx";
import { useDocumentTitle } from "../../hooks/use-document-title.ts";
import { usePages } from "../../hooks/use-pages.ts";
import { usePermissions } from "../iam/use-permissions.ts";
import { issuePagePath, newChangePath } from "./issue-address.ts";
import { ISSUE_VIEWS, issueListAddress, issueListRequest, issuesPath } from "./issue-views.ts";

export function IssuesPage() {
  const address = issueListAddress(useSearch());
  const view = ISSUE_VIEWS.find((v) => v.id === address.view)!;
  useDocumentTitle(`Issues · ${view.label}`);
  const pages = usePages(
    async (pageToken, signal) => {
      const reply = await client(IssueService).listIssues({ ...issueListRequest(address), pageToken, pageSize: 50 }, { signal });
      return { items: reply.issues, nextPageToken: reply.nextPageToken };
    },
    [address.view, address.project],
  );
  return (
    <section aria-labelledby="issues-heading" className="page">
      <div className="page-head">
        <h1 id="issues-heading">Issues{address.project && <span className="subtitle"> of project {address.project}</span>}</h1>
        {address.project && (
          <div className="actions">
            <NewChangeLink project={address.project} />
            <Link href={issuesPath({ view: address.view })}>All projects</Link>
          </div>
        )}
      </div>
      <nav aria-label="Issue lists" className="tabs">
        {ISSUE_VIEWS.map((v) => (
          <Link key={v.id} href={issuesPath({ view: v.id, ...(address.project ? { project: address.project } : {}) })} className="tab" aria-current={v.id === view.id ? "page" : undefined}>
            {v.label}
          </Link>
        ))}
      </nav>
      {pages.items.length > 0 && (
        <ListTable columns={["Title", "Project", "Status", "Approval", "Creator", "Updated"]}>
          {pages.items.map((issue) => {
            const project = issue.name.split("/")[1] ?? "";
            return (
              <tr key={issue.name}>
                <td>
                  <Link href={issuePagePath(issue.name)}>{issue.title}</Link>
                </td>
                <td>
                  <Link href={issuesPath({ view: address.view, project })}>{project}</Link>
                </td>
                <td>
                  <span className={`badge status-${Issue_Status[issue.status].toLowerCase()}`}>{Issue_Status[issue.status]}</span>
                </td>
                <td>{Issue_ApprovalStatus[issue.approvalStatus]}</td>
                <td>{issue.creator.replace(/^users\//, "")}</td>
                <td>
                  <TimeText time={issue.updateTime} />
                </td>
              </tr>
            );
          })}
        </ListTable>
      )}
      <ListFooter pages={pages} empty={`No issue in “${view.label}”.`} />
    </section>
  );
}

/** A change is a plan and its issue: both must be allowed. */
const CHANGE_PERMISSIONS = ["bb.plans.create", "bb.issues.create"] as const;

function NewChangeLink({ project }: { project: string }) {
  const may = usePermissions(`projects/${project}`, CHANGE_PERMISSIONS);
  if (!CHANGE_PERMISSIONS.every((p) => may.can(p))) return null;
  return (
    <Link href={newChangePath(project)} className="button primary">
      New change
    </Link>
  );
}
