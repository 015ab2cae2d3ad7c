// The page the reset e-mail links to (`/auth/password-reset?token=…`,
// contract §5.3). The token leaves the address bar as soon as it is read, so
// that it stays out of the history and of screenshots.
import { useState } from "react";
import { Link } from "wouter";
import { authClient } from "../../api/clients.ts";
import { Alert, FormError } from "../../components/alert.tsx";
import { SubmitButton } from "../../components/submit-button.tsx";
import { useParamOnce } from "../../hooks/use-param-once.ts";
import { useSubmit } from "../../hooks/use-submit.ts";
import { paths } from "../../routes/paths.ts";
import { AuthLayout } from "./auth-layout.tsx";
import { NewPasswordFields, newPasswordOf } from "./new-password-fields.tsx";

export function PasswordResetPage() {
  const token = useParamOnce("token");
  const [done, setDone] = useState(false);
  const { pending, error, onSubmit } = useSubmit(async (form) => {
    await authClient.resetPassword({ token, newPassword: newPasswordOf(form) });
    setDone(true);
  });
  return (
    <AuthLayout heading="Choose a new password">
      {done ? (
        <Alert tone="success">Your password has been changed, and every session of your account has ended.</Alert>
      ) : token ? (
        <form onSubmit={onSubmit}>
          <FormError message={error} />
          <NewPasswordFields />
          <SubmitButton pending={pending}>Set the password</SubmitButton>
        </form>
      ) : (
        <Alert tone="error">This link has no token. Open the link of the e-mail again, or ask for a new one.</Alert>
      )}
      <p className="form-footer">
        <Link href={paths.signIn}>{done ? "Sign in" : "Back to sign-in"}</Link>
        {!done && <Link href={paths.forgotPassword}>Ask for a new link</Link>}
      </p>
    </AuthLayout>
  );
}
