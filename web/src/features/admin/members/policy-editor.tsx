// An IAM policy (contract §6.4) as a table of who holds which role, until
// when; holders of the set permission grant and revoke, each change written
// as the whole policy under the etag read. A write over someone else's
// change is refused (aborted) and the page offers the current version.
import type { Binding, IamPolicy } from "@gen/svc/v1/iam_policy_pb.js";
import { useState } from "react";
import { FormError } from "../../../components/alert.tsx";
import { ListTable } from "../../../components/list-table.tsx";
import { Loading } from "../../../components/loading.tsx";
import { useLoad } from "../../../hooks/use-load.ts";
import { forgetPermissions, type Permission, usePermissions } from "../../iam/use-permissions.ts";
import { useAction } from "../../../hooks/use-action.ts";
import { WriteRefusal } from "../components/write-refusal.tsx";
import { allRoles } from "./all-roles.ts";
import { GrantForm } from "./grant-form.tsx";
import { memberLabel, revoke } from "./policy-edit.ts";

export interface PolicySource {
  /** The resource whose policy it is, e.g. workspaces/-. */
  resource: string;
  /** The permission a write needs there. */
  setPermission: Permission;
  read(signal: AbortSignal): Promise<IamPolicy>;
  write(bindings: Binding[], etag: string): Promise<IamPolicy>;
}

/** The expiry a condition states, when it states one. */
function expiryOf(binding: Binding): string | undefined {
  return /timestamp\("([^"]+)"\)/.exec(binding.condition?.expression ?? "")?.[1];
}

export function PolicyEditor({ source }: { source: PolicySource }) {
  const loaded = useLoad(source.read, [source.resource]);
  const roles = useLoad(allRoles, []);
  const permissions = usePermissions(source.resource, [source.setPermission]);
  const [written, setWritten] = useState<IamPolicy>();
  const write = useAction();
  const policy = written ?? (loaded.status === "done" ? loaded.value : undefined);
  const mayWrite = permissions.can(source.setPermission);
  const roleTitle = (name: string) => (roles.status === "done" && roles.value.find((r) => r.name === name)?.title) || name;

  const reload = () => {
    write.dismiss();
    setWritten(undefined);
    loaded.reload();
  };
  const save = (bindings: Binding[]) =>
    write.run(async () => {
      setWritten(await source.write(bindings, policy?.etag ?? ""));
      forgetPermissions();
    });

  if (loaded.status === "failed") return <FormError message={loaded.message} />;
  if (!policy) return <Loading />;
  return (
    <>
      <ListTable columns={mayWrite ? ["Member", "Role", "Until", "Change"] : ["Member", "Role", "Until"]}>
        {policy.bindings.flatMap((binding, index) =>
          binding.members.map((member) => (
            <tr key={`${index} ${member}`}>
              <td>{memberLabel(member)}</td>
              <td>{roleTitle(binding.role)}</td>
              <td>
                {expiryOf(binding) ?? "–"} {binding.expired && <span className="badge outcome-refused">expired</span>}
              </td>
              {mayWrite && (
                <td>
                  <button
                    type="button"
                    className="button"
                    disabled={write.pending}
                    aria-label={`Remove ${memberLabel(member)} from ${roleTitle(binding.role)}`}
                    onClick={() => void save(revoke(policy.bindings, index, member))}
                  >
                    Remove
                  </button>
                </td>
              )}
            </tr>
          )),
        )}
      </ListTable>
      <WriteRefusal action={write} onReload={reload} />
      {mayWrite && <GrantForm roles={roles.status === "done" ? roles.value : []} bindings={policy.bindings} pending={write.pending} onGrant={save} />}
    </>
  );
}
