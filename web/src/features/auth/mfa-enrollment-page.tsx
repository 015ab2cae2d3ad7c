// Second-factor enrolment while the workspace requires one (contract §5.1
// require_2fa): a new TOTP secret as a QR code and as text, confirmed with a
// current code; then the ten recovery codes, shown this once.
import { type User, UserService } from "@gen/svc/v1/user_service_pb.js";
import { useState } from "react";
import { client } from "../../api/clients.ts";
import { Alert, FormError } from "../../components/alert.tsx";
import { Field } from "../../components/field.tsx";
import { SubmitButton } from "../../components/submit-button.tsx";
import { useSubmit } from "../../hooks/use-submit.ts";
import { AuthLayout } from "./auth-layout.tsx";
import { RecoveryCodes } from "./recovery-codes.tsx";
import { useSession } from "./session.tsx";
import { SignOutFooter } from "./sign-out-footer.tsx";

export function MfaEnrollmentPage() {
  const session = useSession();
  const name = session.state.status === "signed-in" ? session.state.user.name : "";
  const [pending, setPending] = useState<User>();
  const [enabled, setEnabled] = useState<User>();

  const start = useSubmit(async () => {
    setPending(await client(UserService).updateUser({ user: { name }, regenerateTempMfaSecret: true }));
  });
  const confirm = useSubmit(async (form) => {
    const otpCode = String(form.get("code")).replace(/\s/g, "");
    setEnabled(await client(UserService).updateUser({ user: { name, mfaEnabled: true }, updateMask: { paths: ["mfa_enabled"] }, otpCode }));
  });

  if (enabled) {
    return (
      <AuthLayout heading="Save your recovery codes">
        <RecoveryCodes codes={enabled.tempRecoveryCodes} onDone={() => session.unrestricted(enabled)} />
      </AuthLayout>
    );
  }
  return (
    <AuthLayout heading="Set up two-step verification">
      <Alert tone="info">This workspace requires a second factor: an authenticator app that shows a new 6-digit code every 30 seconds.</Alert>
      {pending ? (
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
      ) : (
        <form onSubmit={start.onSubmit}>
          <FormError message={start.error} />
          <SubmitButton pending={start.pending}>Begin</SubmitButton>
        </form>
      )}
      <SignOutFooter />
    </AuthLayout>
  );
}
