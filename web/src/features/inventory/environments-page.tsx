// The environments (contract §9.2: the ENVIRONMENT setting), in promotion
// order, read-only: each one's rollout policy, protection and review rules.
import { EnvironmentSetting_RolloutPolicy } from "@gen/svc/v1/setting_operations_pb.js";
import { FormError } from "../../components/alert.tsx";
import { ListTable } from "../../components/list-table.tsx";
import { Loading } from "../../components/loading.tsx";
import { useDocumentTitle } from "../../hooks/use-document-title.ts";
import { useSetting } from "../admin/settings/use-setting.ts";

export function EnvironmentsPage() {
  useDocumentTitle("Environments");
  const setting = useSetting("environment");
  const environments = setting.payload?.environments ?? [];
  return (
    <section aria-labelledby="environments-heading" className="page">
      <h1 id="environments-heading">Environments</h1>
      <p className="hint">Rollouts go through them in this order.</p>
      {setting.loaded.status === "failed" && <FormError message={setting.loaded.message} />}
      {setting.loaded.status === "loading" && <Loading />}
      {setting.loaded.status === "done" &&
        (environments.length === 0 ? (
          <p className="empty">No environment.</p>
        ) : (
          <ListTable columns={["Order", "Environment", "Rollout", "Protected", "SQL review rules"]}>
            {environments.map((environment, index) => (
              <tr key={environment.id}>
                <td>{index + 1}</td>
                <td>
                  {environment.title || environment.id}
                  <br />
                  <code className="hint">{environment.id}</code>
                </td>
                <td>{environment.rolloutPolicy ? EnvironmentSetting_RolloutPolicy[environment.rolloutPolicy].toLowerCase() : "–"}</td>
                <td>{environment.protected ? "yes" : "no"}</td>
                <td>{environment.sqlReview?.rules.length ?? 0}</td>
              </tr>
            ))}
          </ListTable>
        ))}
    </section>
  );
}
