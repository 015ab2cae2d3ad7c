// A self-service password change (contract §5.1): the current password
// first, then the new one under the workspace's policy. This session goes
// on; the user's other sessions end.
import { type User, UserService } from "@gen/svc/v1/user_service_pb.js";
import { useState } from "react";
import { client } from "../../api/clients.ts";
import { Alert, FormError } from "../../components/alert.tsx";
import { Field } from "../../components/field.tsx";
import { SubmitButton } from "../../components/submit-button.tsx";
import { TimeText } from "../../components/time-text.tsx";
import { useSubmit } from "../../hooks/use-submit.ts";
import { NewPasswordFields, newPasswordOf } from "../auth/new-password-fields.tsx";
import { useSession } from "../auth/session.tsx";

export function PasswordSection({ user }: { user: User }) {
  const session = useSession();
  // A new form after each change, so that no password stays in the fields.
  const [changes, setChanges] = useState(0);
  const { pending, error, onSubmit } = useSubmit(async (form) => {
    const password = newPasswordOf(form);
    const currentPassword = String(form.get("currentPassword"));
    session.updated(await client(UserService).updateUser({ user: { name: user.name, password }, updateMask: { paths: ["password"] }, currentPassword }));
    setChanges((n) => n + 1);
  });
  return (
    <section className="card" aria-labelledby="password-heading">
      <h2 id="password-heading">Password</h2>
      <p className="hint">
        Last changed: <TimeText time={user.lastChangePasswordTime} />
      </p>
      <form onSubmit={onSubmit} key={changes}>
        {changes > 0 && <Alert tone="success">Your password has been changed. Your other sessions have ended.</Alert>}
        <FormError message={error} />
        <input type="text" name="username" autoComplete="username" value={user.loginId} readOnly hidden />
        <Field label="Current password" name="currentPassword" type="password" autoComplete="current-password" required />
        <NewPasswordFields />
        <SubmitButton pending={pending}>Change password</SubmitButton>
      </form>
    </section>
  );
}
