// The databases under a parent (contract §9.5: a project or an instance),
// page by page, each leading to its schema.
import { DatabaseService } from "@gen/svc/v1/database_service_pb.js";
import { Engine } from "@gen/svc/v1/instance_service_pb.js";
import { Link } from "wouter";
import { client } from "../../api/clients.ts";
import { ListFooter } from "../../components/list-footer.tsx";
import { ListTable } from "../../components/list-table.tsx";
import { TimeText } from "../../components/time-text.tsx";
import { usePages } from "../../hooks/use-pages.ts";
import { pathOf, paths } from "../../routes/paths.ts";

/** "instances/i/databases/d" → { instance: "i", database: "d" }. */
export function databaseIds(name: string): { instance: string; database: string } {
  const [, instance = "", , database = ""] = name.split("/");
  return { instance, database };
}

/** The id after a resource name's collection: "environments/prod" → "prod". */
const idOf = (name: string) => name.slice(name.indexOf("/") + 1);

export function DatabaseList({ parent }: { parent: string }) {
  const pages = usePages(
    async (pageToken, signal) => {
      const reply = await client(DatabaseService).listDatabases({ parent, pageToken, pageSize: 100 }, { signal });
      return { items: reply.databases, nextPageToken: reply.nextPageToken };
    },
    [parent],
  );
  return (
    <>
      {pages.items.length > 0 && (
        <ListTable columns={["Database", "Instance", "Environment", "Engine", "Schema version", "Last sync"]}>
          {pages.items.map((database) => {
            const ids = databaseIds(database.name);
            return (
              <tr key={database.name}>
                <td>
                  <Link href={pathOf(paths.databaseSchema, { project: idOf(database.project), ...ids })}>{ids.database}</Link>
                </td>
                <td>{ids.instance}</td>
                <td>{idOf(database.environment) || "–"}</td>
                <td>{Engine[database.engine]}</td>
                <td>{database.schemaVersion || "–"}</td>
                <td>
                  <TimeText time={database.lastSyncTime} />
                </td>
              </tr>
            );
          })}
        </ListTable>
      )}
      <ListFooter pages={pages} empty="No database here yet." />
    </>
  );
}
