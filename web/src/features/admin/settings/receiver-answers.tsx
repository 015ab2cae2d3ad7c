// What each receiver of a test message answered (TestMonitoringSetting,
// TestAppImSetting): its HTTP status, the start of its answer, and why it is
// not a success.
import { ListTable } from "../../../components/list-table.tsx";

export interface ReceiverAnswer {
  receiver: string;
  status: number;
  body: string;
  error: string;
}

export function ReceiverAnswers({ answers, caption }: { answers: readonly ReceiverAnswer[]; caption: string }) {
  if (answers.length === 0) return <p role="status">{caption}: nothing to send to.</p>;
  return (
    <div role="status" aria-label={caption}>
      <ListTable columns={["Receiver", "Status", "Answer", "Outcome"]}>
        {answers.map((answer, index) => (
          <tr key={`${answer.receiver}-${index}`}>
            <td className="wrap">{answer.receiver}</td>
            <td>{answer.status || "no answer"}</td>
            <td className="wrap">
              <code>{answer.body}</code>
            </td>
            <td>
              <span className={`badge ${answer.error ? "outcome-refused" : "outcome-ok"}`}>{answer.error || "delivered"}</span>
            </td>
          </tr>
        ))}
      </ListTable>
    </div>
  );
}
