// Enrolment of a TOTP second factor (contract §5.1): a new secret as a QR
// code and as text, confirmed with a current code; `onEnabled` gets the user
// with the ten recovery codes, which the caller shows once.
import { type User, UserService } from "@gen/svc/v1/user_service_pb.js";
import { useState } from "react";
import { client } from "../../api/clients.ts";
import { FormError } from "../../components/alert.tsx";
import { Field } from "../../components/field.tsx";
import { SubmitButton } from "../../components/submit-button.tsx";
import { useSubmit } from "../../hooks/use-submit.ts";

interface MfaEnrollmentProps {
  /** users/<login_id> of the signed-in user. */
  userName: string;
  /** The label of the button that asks for a secret. */
  begin: string;
  onEnabled(user: User): void;
}

export function MfaEnrollment({ userName, begin, onEnabled }: MfaEnrollmentProps) {
  const [pending, setPending] = useState<User>();
  const start = useSubmit(async () => {
    setPending(await client(UserService).updateUser({ user: { name: userName }, regenerateTempMfaSecret: true }));
  });
  const confirm = useSubmit(async (form) => {
    const otpCode = String(form.get("code")).replace(/\s/g, "");
    onEnabled(await client(UserService).updateUser({ user: { name: userName, mfaEnabled: true }, updateMask: { paths: ["mfa_enabled"] }, otpCode }));
  });
  if (!pending) {
    return (
      <form onSubmit={start.onSubmit}>
        <FormError message={start.error} />
        <SubmitButton pending={start.pending}>{begin}</SubmitButton>
      </form>
    );
  }
  return (
    <form onSubmit={confirm.onSubmit}>
      <figure className="qr">
        <img src={pending.tempOtpQrCode} alt="QR code of the authenticator secret" width={200} height={200} />
        <figcaption>
          Scan it with the app, or type this key: <code className="secret">{pending.tempOtpSecret}</code>
        </figcaption>
      </figure>
      <FormError message={confirm.error} />
      <Field label="Code from the app" name="code" inputMode="numeric" autoComplete="one-time-code" required autoFocus />
      <SubmitButton pending={confirm.pending}>Turn on</SubmitButton>
    </form>
  );
}
