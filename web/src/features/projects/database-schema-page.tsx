// One database's schema, read-only (contract §9.5 GetDatabaseMetadata, which
// needs bb.databases.getSchema): its schemas, their tables with columns, and
// their views, as the last sync found them.
import { DatabaseService, type SchemaMetadata, type TableMetadata } from "@gen/svc/v1/database_service_pb.js";
import { client } from "../../api/clients.ts";
import { FormError } from "../../components/alert.tsx";
import { ListTable } from "../../components/list-table.tsx";
import { Loading } from "../../components/loading.tsx";
import { useLoad } from "../../hooks/use-load.ts";
import { paths } from "../../routes/paths.ts";
import { DatabasePageHeader, useDatabaseRoute } from "./database-page-header.tsx";

export function DatabaseSchemaPage() {
  const route = useDatabaseRoute();
  const { instance, database } = route;
  const name = `instances/${instance}/databases/${database}/metadata`;
  const metadata = useLoad((signal) => client(DatabaseService).getDatabaseMetadata({ name }, { signal }), [name]);
  return (
    <section aria-labelledby="schema-heading" className="page">
      <DatabasePageHeader headingId="schema-heading" title="Schema" route={route} neighbour={{ path: paths.databaseRevisions, label: "Revisions" }} />
      {metadata.status === "loading" && <Loading />}
      {metadata.status === "failed" && <FormError message={metadata.message} />}
      {metadata.status === "done" &&
        (metadata.value.schemas.length === 0 ? (
          <p className="empty">Nothing synced yet.</p>
        ) : (
          metadata.value.schemas.map((schema) => <SchemaSection key={schema.name} schema={schema} />)
        ))}
    </section>
  );
}

function SchemaSection({ schema }: { schema: SchemaMetadata }) {
  // MySQL databases have one schema without a name.
  const title = schema.name ? `Schema ${schema.name}` : "Tables";
  return (
    <section aria-label={title} className="schema">
      <h2>{title}</h2>
      {schema.tables.length === 0 && <p className="empty">No table.</p>}
      {schema.tables.map((table) => (
        <TableColumns key={table.name} table={table} />
      ))}
      {schema.views.length > 0 && <p>Views: {schema.views.map((view) => view.name).join(", ")}</p>}
    </section>
  );
}

function TableColumns({ table }: { table: TableMetadata }) {
  const primary = new Set(table.indexes.find((index) => index.primary)?.expressions ?? []);
  return (
    <section aria-label={`Table ${table.name}`} className="admin-card">
      <h3>
        {table.name} {table.comment && <span className="hint">{table.comment}</span>}
      </h3>
      <ListTable columns={["Column", "Type", "Null", "Default"]}>
        {table.columns.map((column) => (
          <tr key={column.name}>
            <td>
              {column.name} {primary.has(column.name) && <span className="badge">primary key</span>}
            </td>
            <td>
              <code>{column.type}</code>
            </td>
            <td>{column.nullable ? "nullable" : "not null"}</td>
            <td>{column.defaultExpression === undefined ? "–" : <code>{column.defaultExpression}</code>}</td>
          </tr>
        ))}
      </ListTable>
    </section>
  );
}
