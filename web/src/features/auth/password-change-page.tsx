// The forced password change (contract §4.2 requireResetPassword): until it
// is done the session may do nothing else. The caller's own session goes on
// after the change; the user's other sessions end.
import { UserService } from "@gen/svc/v1/user_service_pb.js";
import { client } from "../../api/clients.ts";
import { Alert, FormError } from "../../components/alert.tsx";
import { Field } from "../../components/field.tsx";
import { SubmitButton } from "../../components/submit-button.tsx";
import { useSubmit } from "../../hooks/use-submit.ts";
import { AuthLayout } from "./auth-layout.tsx";
import { NewPasswordFields, newPasswordOf } from "./new-password-fields.tsx";
import { useSession } from "./session.tsx";
import { SignOutFooter } from "./sign-out-footer.tsx";

export function PasswordChangePage() {
  const session = useSession();
  const user = session.state.status === "signed-in" ? session.state.user : undefined;
  const { pending, error, onSubmit } = useSubmit(async (form) => {
    if (!user) return;
    const password = newPasswordOf(form);
    const updated = await client(UserService).updateUser({
      user: { name: user.name, password },
      updateMask: { paths: ["password"] },
      currentPassword: String(form.get("currentPassword")),
    });
    session.unrestricted(updated);
  });
  return (
    <AuthLayout heading="Choose a new password">
      <form onSubmit={onSubmit}>
        <Alert tone="info">
          {user?.title || user?.loginId ? `${user.title || user.loginId}, your` : "Your"} password must be changed before you go on.
        </Alert>
        <FormError message={error} />
        {/* For password managers: whose password this is. */}
        <input type="text" name="username" autoComplete="username" value={user?.loginId ?? ""} readOnly hidden />
        <Field label="Current password" name="currentPassword" type="password" autoComplete="current-password" required autoFocus />
        <NewPasswordFields />
        <SubmitButton pending={pending}>Change password</SubmitButton>
        <SignOutFooter />
      </form>
    </AuthLayout>
  );
}
