// Sign-in with a code sent by e-mail (contract §4.2): the address first
// (the server answers the same whether or not an account uses it), then the
// 6-digit code, which works once, for 10 minutes. The address stands for the
// login id; a user with a second factor still gets the second step.
import type { LoginResponse } from "@gen/svc/v1/auth_service_pb.js";
import { useState } from "react";
import { authClient } from "../../api/clients.ts";
import { Alert, FormError } from "../../components/alert.tsx";
import { Field } from "../../components/field.tsx";
import { SubmitButton } from "../../components/submit-button.tsx";
import { useSubmit } from "../../hooks/use-submit.ts";

export function EmailCodeStep({ onAnswer }: { onAnswer(reply: LoginResponse): void }) {
  const [sentTo, setSentTo] = useState<string>();
  const send = useSubmit(async (form) => {
    const email = String(form.get("email")).trim();
    await authClient.sendEmailCode({ email });
    setSentTo(email);
  });
  const verify = useSubmit(async (form) => {
    const emailCode = String(form.get("code")).replace(/\s/g, "");
    onAnswer(await authClient.login({ loginId: sentTo, emailCode, web: true }));
  });
  if (!sentTo) {
    return (
      <form onSubmit={send.onSubmit}>
        <FormError message={send.error} />
        <Field label="E-mail address" name="email" type="email" autoComplete="email" required autoFocus />
        <SubmitButton pending={send.pending}>Send me a code</SubmitButton>
      </form>
    );
  }
  return (
    <form onSubmit={verify.onSubmit}>
      <Alert tone="info">If an account uses {sentTo}, a 6-digit code is on its way. It works once, for 10 minutes.</Alert>
      <FormError message={verify.error} />
      <Field
        label="Code from the e-mail"
        name="code"
        inputMode="numeric"
        autoComplete="one-time-code"
        pattern="\s*(\d\s*){6}"
        required
        autoFocus
      />
      <SubmitButton pending={verify.pending}>Sign in</SubmitButton>
      <p className="form-footer">
        <button type="button" className="link-button" onClick={() => setSentTo(undefined)}>
          Send a new code
        </button>
      </p>
    </form>
  );
}
