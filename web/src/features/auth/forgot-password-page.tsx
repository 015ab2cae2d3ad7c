// A forgotten password (contract §5.3): the server mails a link to the
// address when a local user has it, and answers the same either way.
import { useState } from "react";
import { Link } from "wouter";
import { authClient } from "../../api/clients.ts";
import { Alert, FormError } from "../../components/alert.tsx";
import { Field } from "../../components/field.tsx";
import { SubmitButton } from "../../components/submit-button.tsx";
import { useSubmit } from "../../hooks/use-submit.ts";
import { paths } from "../../routes/paths.ts";
import { AuthLayout } from "./auth-layout.tsx";

export function ForgotPasswordPage() {
  const [sentTo, setSentTo] = useState<string>();
  const { pending, error, onSubmit } = useSubmit(async (form) => {
    const email = String(form.get("email")).trim();
    await authClient.requestPasswordReset({ email });
    setSentTo(email);
  });
  return (
    <AuthLayout heading="Reset your password">
      {sentTo ? (
        <Alert tone="success">
          If an account of this workspace uses {sentTo}, a link to choose a new password is on its way. It works once, for 30 minutes.
        </Alert>
      ) : (
        <form onSubmit={onSubmit}>
          <FormError message={error} />
          <Field label="E-mail address" name="email" type="email" autoComplete="email" required autoFocus />
          <SubmitButton pending={pending}>Send the link</SubmitButton>
        </form>
      )}
      <p className="form-footer">
        <Link href={paths.signIn}>Back to sign-in</Link>
      </p>
    </AuthLayout>
  );
}
