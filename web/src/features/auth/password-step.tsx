import type { LoginResponse } from "@gen/svc/v1/auth_service_pb.js";
import { Link } from "wouter";
import { authClient } from "../../api/clients.ts";
import { Alert, FormError } from "../../components/alert.tsx";
import { Field } from "../../components/field.tsx";
import { SubmitButton } from "../../components/submit-button.tsx";
import { useSubmit } from "../../hooks/use-submit.ts";
import { paths } from "../../routes/paths.ts";

interface PasswordStepProps {
  /** The session ended by itself (expired or revoked), rather than by signing out. */
  expired: boolean;
  onAnswer(reply: LoginResponse): void;
}

export function PasswordStep({ expired, onAnswer }: PasswordStepProps) {
  const { pending, error, onSubmit } = useSubmit(async (form) => {
    const reply = await authClient.login({
      loginId: String(form.get("loginId")).trim(),
      password: String(form.get("password")),
      web: true,
    });
    onAnswer(reply);
  });
  return (
    <form onSubmit={onSubmit}>
      {expired && !error && <Alert tone="info">Your session has ended. Sign in again to go on.</Alert>}
      <FormError message={error} />
      <Field label="Login ID" name="loginId" autoComplete="username" required autoFocus />
      <Field label="Password" name="password" type="password" autoComplete="current-password" required />
      <SubmitButton pending={pending}>Sign in</SubmitButton>
      <p className="form-footer">
        <Link href={paths.forgotPassword}>Forgot your password?</Link>
      </p>
    </form>
  );
}
