// The instances (contract §9.3): engine, environment, version and the last
// sync, page by page; holders of bb.instances.update may test an instance's
// connection with its stored credentials.
import { Engine, Instance_SyncState, InstanceService } from "@gen/svc/v1/instance_service_pb.js";
import { client } from "../../../api/clients.ts";
import { ListFooter } from "../../../components/list-footer.tsx";
import { ListTable } from "../../../components/list-table.tsx";
import { TimeText } from "../../../components/time-text.tsx";
import { useDocumentTitle } from "../../../hooks/use-document-title.ts";
import { usePages } from "../../../hooks/use-pages.ts";
import { usePermissions, WORKSPACE } from "../../iam/use-permissions.ts";
import { ConnectionTest } from "./connection-test.tsx";

export function InstancesPage() {
  useDocumentTitle("Instances");
  const permissions = usePermissions(WORKSPACE, ["bb.instances.update"]);
  const mayTest = permissions.can("bb.instances.update");
  const pages = usePages(async (pageToken, signal) => {
    const reply = await client(InstanceService).listInstances({ pageToken, pageSize: 100 }, { signal });
    return { items: reply.instances, nextPageToken: reply.nextPageToken };
  }, []);
  const columns = ["Instance", "Engine", "Environment", "Version", "Last sync", ...(mayTest ? ["Connection"] : [])];
  return (
    <section aria-labelledby="instances-heading" className="page">
      <h1 id="instances-heading">Instances</h1>
      {pages.items.length > 0 && (
        <ListTable columns={columns}>
          {pages.items.map((instance) => (
            <tr key={instance.name}>
              <td>
                {instance.title}
                <br />
                <code className="hint">{instance.name}</code>
              </td>
              <td>{Engine[instance.engine]}</td>
              <td>{instance.environment.replace(/^environments\//, "") || "–"}</td>
              <td>{instance.engineVersion || "–"}</td>
              <td>
                <TimeText time={instance.lastSyncTime} />{" "}
                {instance.syncState === Instance_SyncState.FAILED && (
                  <span className="badge outcome-refused" title={instance.syncError}>
                    failed: {instance.syncError}
                  </span>
                )}
              </td>
              {mayTest && (
                <td>
                  <ConnectionTest instance={instance} />
                </td>
              )}
            </tr>
          ))}
        </ListTable>
      )}
      <ListFooter pages={pages} empty="No instance yet." />
    </section>
  );
}
