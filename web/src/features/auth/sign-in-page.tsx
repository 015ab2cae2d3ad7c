// Sign-in (contract §4.2, §4.8): the identity providers' links, then the
// password or — when the workspace allows it — a code sent by e-mail; for a
// user with a second factor, a TOTP or recovery code in a second step that
// carries the first step's temporary token. The session itself lives in
// HttpOnly cookies. A single sign-on the server refused comes back here with
// its message in `sso_error`.
import type { LoginResponse } from "@gen/svc/v1/auth_service_pb.js";
import { useState } from "react";
import { Link, useSearch } from "wouter";
import { Alert } from "../../components/alert.tsx";
import { useParamOnce } from "../../hooks/use-param-once.ts";
import { paths, safeReturnPath, withReturnPath } from "../../routes/paths.ts";
import { useActuatorInfo } from "../workspace/actuator-info.ts";
import { AuthLayout } from "./auth-layout.tsx";
import { EmailCodeStep } from "./email-code-step.tsx";
import { PasswordStep } from "./password-step.tsx";
import { SecondFactorStep } from "./second-factor-step.tsx";
import { useSession } from "./session.tsx";
import { signInMethods } from "./sign-in-methods.ts";
import { SsoLinks } from "./sso-links.tsx";

type Method = "password" | "email-code";

export function SignInPage() {
  const session = useSession();
  const info = useActuatorInfo();
  const back = safeReturnPath(new URLSearchParams(useSearch()).get("redirect"));
  const ssoError = useParamOnce("sso_error");
  const [tempToken, setTempToken] = useState<string>();
  const [chosen, setChosen] = useState<Method>();
  const expired = session.state.status === "signed-out" && session.state.reason === "expired";
  const methods = signInMethods(info.status === "done" ? info.value : undefined);

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
  // Password sign-in for administrators only is not offered first when another way is open.
  const method = chosen ?? (methods.password === "administrators" && methods.emailCode ? "email-code" : "password");
  const passwordHidden = method === "password" && methods.password === "administrators" && !chosen;
  return (
    <AuthLayout heading="Sign in">
      {ssoError && <Alert tone="error">Single sign-on did not complete: {ssoError}</Alert>}
      <SsoLinks back={back} />
      {passwordHidden ? (
        <Alert tone="info">Sign in through your identity provider. Password sign-in is open to administrators only.</Alert>
      ) : method === "password" ? (
        <PasswordStep expired={expired} onAnswer={answered} />
      ) : (
        <EmailCodeStep onAnswer={answered} />
      )}
      <p className="form-footer">
        {method !== "email-code" && methods.emailCode && (
          <button type="button" className="link-button" onClick={() => setChosen("email-code")}>
            Use a code sent by e-mail instead
          </button>
        )}
        {(method !== "password" || passwordHidden) && (
          <button type="button" className="link-button" onClick={() => setChosen("password")}>
            {methods.password === "administrators" ? "Administrator sign-in with a password" : "Use your password instead"}
          </button>
        )}
        {methods.signUp && <Link href={withReturnPath(paths.signUp, back)}>Create an account</Link>}
      </p>
    </AuthLayout>
  );
}
