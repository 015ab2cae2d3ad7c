// Granting a role: to a user by login id, to a group, or to everyone signed
// in; for ever or until a time.
import type { Binding } from "@gen/svc/v1/iam_policy_pb.js";
import type { Role } from "@gen/svc/v1/role_service_pb.js";
import { type FormEvent, useId, useState } from "react";
import { Field } from "../../../components/field.tsx";
import { SubmitButton } from "../../../components/submit-button.tsx";
import { grant, memberOf } from "./policy-edit.ts";

type MemberKind = "user" | "group" | "allUsers";

interface GrantFormProps {
  roles: readonly Role[];
  bindings: readonly Binding[];
  pending: boolean;
  onGrant(bindings: Binding[]): Promise<boolean>;
}

export function GrantForm({ roles, bindings, pending, onGrant }: GrantFormProps) {
  const kindId = useId();
  const roleId = useId();
  const [kind, setKind] = useState<MemberKind>("user");
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const until = String(data.get("until") ?? "");
    const member = memberOf(kind, String(data.get("member") ?? ""));
    if (await onGrant(grant(bindings, member, String(data.get("role")), until ? new Date(until) : undefined))) form.reset();
  };
  return (
    <form className="admin-card grant-form" aria-labelledby={`${kindId}-title`} onSubmit={(event) => void submit(event)}>
      <h2 id={`${kindId}-title`}>Grant a role</h2>
      <div className="field">
        <label htmlFor={kindId}>Grant to</label>
        <select id={kindId} value={kind} onChange={(event) => setKind(event.target.value as MemberKind)}>
          <option value="user">A user</option>
          <option value="group">A group</option>
          <option value="allUsers">Everyone signed in</option>
        </select>
      </div>
      {kind !== "allUsers" && <Field label={kind === "user" ? "Login ID" : "Group ID"} name="member" required autoComplete="off" />}
      <div className="field">
        <label htmlFor={roleId}>Role</label>
        <select id={roleId} name="role" required>
          {roles.map((role) => (
            <option key={role.name} value={role.name}>
              {role.title || role.name}
            </option>
          ))}
        </select>
      </div>
      <Field label="Until (optional)" name="until" type="datetime-local" hint="Leave empty for a grant without end." />
      <SubmitButton pending={pending}>Grant</SubmitButton>
    </form>
  );
}
