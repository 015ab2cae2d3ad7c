// Second-factor enrolment while the workspace requires one (contract §5.1
// require_2fa): nothing else opens until it is done; then the ten recovery
// codes, shown this once.
import type { User } from "@gen/svc/v1/user_service_pb.js";
import { useState } from "react";
import { Alert } from "../../components/alert.tsx";
import { AuthLayout } from "./auth-layout.tsx";
import { MfaEnrollment } from "./mfa-enrollment.tsx";
import { RecoveryCodes } from "./recovery-codes.tsx";
import { useSession } from "./session.tsx";
import { SignOutFooter } from "./sign-out-footer.tsx";

export function MfaEnrollmentPage() {
  const session = useSession();
  const name = session.state.status === "signed-in" ? session.state.user.name : "";
  const [enabled, setEnabled] = useState<User>();

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
      <MfaEnrollment userName={name} begin="Begin" onEnabled={setEnabled} />
      <SignOutFooter />
    </AuthLayout>
  );
}
