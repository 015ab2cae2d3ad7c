// The user's own recent queries, exports and executions on the chosen
// database (contract §19.1), newest first; choosing one puts its statement
// back in the editor.
import { QueryHistory_Type, SQLService } from "@gen/svc/v1/sql_service_pb.js";
import { useId } from "react";
import { client } from "../../api/clients.ts";
import { filterValue } from "../../api/filter.ts";
import { ListFooter } from "../../components/list-footer.tsx";
import { TimeText } from "../../components/time-text.tsx";
import { usePages } from "../../hooks/use-pages.ts";

const PAGE_SIZE = 20;

interface QueryHistoryListProps {
  database: string | undefined;
  /** Changes after each call that adds an entry, to read the list again. */
  round: number;
  onPick(statement: string): void;
}

export function QueryHistoryList({ database, round, onPick }: QueryHistoryListProps) {
  const headingId = useId();
  const pages = usePages(
    async (pageToken, signal) => {
      const filter = ["creator:me", ...(database ? [`database:${filterValue(database)}`] : [])].join(" AND ");
      const reply = await client(SQLService).listQueryHistories({ filter, pageSize: PAGE_SIZE, pageToken }, { signal });
      return { items: reply.queryHistories, nextPageToken: reply.nextPageToken };
    },
    [database, round],
  );
  return (
    <section className="history" aria-labelledby={headingId}>
      <h2 id={headingId}>History</h2>
      <ol className="history-list">
        {pages.items.map((entry) => (
          <li key={entry.name}>
            <button type="button" className="history-entry" onClick={() => onPick(entry.statement)} title="Put this statement in the editor">
              <code className="history-statement">{entry.statement}</code>
              <span className="history-meta">
                {QueryHistory_Type[entry.type]} · <TimeText time={entry.createTime} /> · {String(entry.rowCount)} rows · {String(entry.durationMs)} ms
              </span>
              {entry.error && <span className="history-error">{entry.error}</span>}
            </button>
          </li>
        ))}
      </ol>
      <ListFooter pages={pages} empty="Nothing run here yet." />
    </section>
  );
}
