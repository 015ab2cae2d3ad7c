// The second step of a sign-in: the code of the authenticator app, or one of
// the recovery codes shown at enrolment. A wrong code may be tried again
// until the server voids the temporary token (5 tries, 5 minutes).
import type { LoginResponse } from "@gen/svc/v1/auth_service_pb.js";
import { useState } from "react";
import { authClient } from "../../api/clients.ts";
import { FormError } from "../../components/alert.tsx";
import { Field } from "../../components/field.tsx";
import { SubmitButton } from "../../components/submit-button.tsx";
import { useSubmit } from "../../hooks/use-submit.ts";

interface SecondFactorStepProps {
  tempToken: string;
  onAnswer(reply: LoginResponse): void;
  /** Back to the password, for a new temporary token. */
  onRestart(): void;
}

export function SecondFactorStep({ tempToken, onAnswer, onRestart }: SecondFactorStepProps) {
  const [useRecovery, setUseRecovery] = useState(false);
  const { pending, error, onSubmit, clearError } = useSubmit(async (form) => {
    const code = String(form.get("code")).trim();
    const reply = await authClient.login({
      mfaTempToken: tempToken,
      web: true,
      ...(useRecovery ? { recoveryCode: code } : { otpCode: code.replace(/\s/g, "") }),
    });
    onAnswer(reply);
  });
  const switchMethod = () => {
    clearError();
    setUseRecovery((r) => !r);
  };
  return (
    <form onSubmit={onSubmit} key={String(useRecovery)}>
      <FormError message={error} />
      {useRecovery ? (
        <Field
          label="Recovery code"
          name="code"
          hint="One of the ten codes you saved when you set up two-step verification (xxxx-xxxx). Each works once."
          autoComplete="off"
          spellCheck={false}
          required
          autoFocus
        />
      ) : (
        <Field
          label="Verification code"
          name="code"
          hint="The 6-digit code your authenticator app shows now."
          inputMode="numeric"
          autoComplete="one-time-code"
          pattern="\s*(\d\s*){6}"
          required
          autoFocus
        />
      )}
      <SubmitButton pending={pending}>Verify</SubmitButton>
      <p className="form-footer">
        <button type="button" className="link-button" onClick={switchMethod}>
          {useRecovery ? "Use the authenticator app instead" : "Use a recovery code instead"}
        </button>
        <button type="button" className="link-button" onClick={onRestart}>
          Start over
        </button>
      </p>
    </form>
  );
}
