// The issue's history (contract §11.1): people's comments and the system's
// events (approved, rejected, stage started, task failed) in one list, and a
// box to add a comment. The list is read again whenever the issue changes.
import { type IssueComment, IssueComment_Type, IssueService } from "@gen/svc/v1/issue_service_pb.js";
import { useId, useState } from "react";
import { client } from "../../api/clients.ts";
import { FormError } from "../../components/alert.tsx";
import { ListFooter } from "../../components/list-footer.tsx";
import { TimeText } from "../../components/time-text.tsx";
import { useAction } from "../../hooks/use-action.ts";
import { usePages } from "../../hooks/use-pages.ts";
import { usePermissions } from "../iam/use-permissions.ts";
import { userLabel } from "./issue-address.ts";

/** An event's kind in words: "TASK_FAILED" → "Task failed". */
export function eventText(comment: Pick<IssueComment, "event" | "comment">): string {
  const words = (comment.event?.kind || "event").replace(/[._-]+/g, " ").toLowerCase();
  const kind = words.charAt(0).toUpperCase() + words.slice(1);
  return comment.comment ? `${kind}: ${comment.comment}` : kind;
}

const COMMENT_PERMISSIONS = ["bb.issueComments.create"] as const;

export function IssueComments({ issueName, version }: { issueName: string; version: string }) {
  const [added, setAdded] = useState(0);
  const may = usePermissions(issueName, COMMENT_PERMISSIONS);
  const pages = usePages(
    async (pageToken, signal) => {
      const reply = await client(IssueService).listIssueComments({ parent: issueName, pageToken, pageSize: 100 }, { signal });
      return { items: reply.issueComments, nextPageToken: reply.nextPageToken };
    },
    [issueName, version, added],
  );
  return (
    <>
      {pages.items.length > 0 && (
        <ol className="comments">
          {pages.items.map((comment) => (
            <li key={comment.name} className={comment.type === IssueComment_Type.EVENT ? "comment comment-event" : "comment"}>
              <div className="comment-head">
                <strong>{userLabel(comment.creator)}</strong> <TimeText time={comment.createTime} />
              </div>
              <p>{comment.type === IssueComment_Type.EVENT ? eventText(comment) : comment.comment}</p>
            </li>
          ))}
        </ol>
      )}
      <ListFooter pages={pages} empty="No comment yet." />
      {may.can("bb.issueComments.create") && <CommentForm issueName={issueName} onAdded={() => setAdded((n) => n + 1)} />}
    </>
  );
}

function CommentForm({ issueName, onAdded }: { issueName: string; onAdded(): void }) {
  const id = useId();
  const [text, setText] = useState("");
  const action = useAction();
  const submit = async () => {
    if (!text.trim()) return;
    if (await action.run(() => client(IssueService).createIssueComment({ parent: issueName, comment: { comment: text.trim() } }))) {
      setText("");
      onAdded();
    }
  };
  return (
    <form className="comment-form" onSubmit={(event) => (event.preventDefault(), void submit())}>
      <div className="field">
        <label htmlFor={id}>Add a comment</label>
        <textarea id={id} rows={3} value={text} onChange={(event) => setText(event.target.value)} required />
      </div>
      <FormError message={action.error} />
      <div className="actions">
        <button type="submit" className="button" disabled={action.pending || !text.trim()}>
          Comment
        </button>
      </div>
    </form>
  );
}
