// Sign-in (contract §4.2): the password, then — for a user with a second
// factor — a TOTP or recovery code in a second step that carries the
// first step's temporary token. The session itself lives in HttpOnly cookies.
import type { LoginResponse } from "@gen/svc/v1/auth_service_pb.js";
import { useState } from "react";
import { AuthLayout } from "./auth-layout.tsx";
import { PasswordStep } from "./password-step.tsx";
import { SecondFactorStep } from "./second-factor-step.tsx";
import { useSession } from "./session.tsx";

export function SignInPage() {
  const session = useSession();
  const [tempToken, setTempToken] = useState<string>();
  const expired = session.state.status === "signed-out" && session.state.reason === "expired";

  const answered = (reply: LoginResponse) => {
    if (reply.mfaTempToken) setTempToken(reply.mfaTempToken);
    else session.signedIn(reply);
  };

  if (tempToken) {
    return (
      <AuthLayout heading="Two-step verification">
        <SecondFactorStep tempToken={tempToken} onAnswer={answered} onRestart={() => setTempToken(undefined)} />
      </AuthLayout>
    );
  }
  return (
    <AuthLayout heading="Sign in">
      <PasswordStep expired={expired} onAnswer={answered} />
    </AuthLayout>
  );
}
