// What Execute did (contract §14.1): per statement run, in order, the rows
// it affected and how long it took, or the target's error (the first that
// fails is the last run).
import type { ExecutedStatement } from "@gen/svc/v1/sql_service_pb.js";
import { ListTable } from "../../components/list-table.tsx";
import { durationMs } from "./cell-text.ts";

const count = new Intl.NumberFormat();

export function ExecutedStatements({ statements }: { statements: readonly ExecutedStatement[] }) {
  return (
    <section className="result" aria-label="Executed statements">
      <h3>Executed</h3>
      <ListTable columns={["Statement", "Rows affected", "Duration", "Outcome"]}>
        {statements.map((executed, i) => (
          <tr key={i}>
            <td className="wrap">
              <code>{executed.statement}</code>
            </td>
            <td>{executed.error ? "–" : count.format(executed.rowsAffected)}</td>
            <td>{count.format(Math.round(durationMs(executed.duration)))} ms</td>
            <td>{executed.error ? <span role="alert">{executed.error}</span> : "done"}</td>
          </tr>
        ))}
      </ListTable>
    </section>
  );
}
