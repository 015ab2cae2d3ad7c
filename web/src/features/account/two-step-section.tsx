// Two-step verification of one's own account (contract §5.1): enrol a TOTP
// factor when none is on; with one on, replace the recovery codes or turn
// it off — each proven with a current code. Turning it off is not offered
// while the workspace requires a second factor (require_2fa); the server
// decides for the cases the page cannot see (a group's require2fa) and its
// refusal is shown.
import { type User, UserService } from "@gen/svc/v1/user_service_pb.js";
import { useState } from "react";
import { client } from "../../api/clients.ts";
import { FormError } from "../../components/alert.tsx";
import { Field } from "../../components/field.tsx";
import { SubmitButton } from "../../components/submit-button.tsx";
import { useSubmit } from "../../hooks/use-submit.ts";
import { MfaEnrollment } from "../auth/mfa-enrollment.tsx";
import { RecoveryCodes } from "../auth/recovery-codes.tsx";
import { useSession } from "../auth/session.tsx";
import { useActuatorInfo } from "../workspace/actuator-info.ts";

export function TwoStepSection({ user }: { user: User }) {
  const session = useSession();
  const info = useActuatorInfo();
  const [codes, setCodes] = useState<readonly string[]>();
  const withNewCodes = (updated: User) => {
    session.updated(updated);
    setCodes(updated.tempRecoveryCodes);
  };
  const mayTurnOff = info.status === "done" && !info.value.require2fa;
  return (
    <section className="card" aria-labelledby="two-step-heading">
      <h2 id="two-step-heading">Two-step verification</h2>
      {codes ? (
        <RecoveryCodes codes={codes} onDone={() => setCodes(undefined)} />
      ) : user.mfaEnabled ? (
        <>
          <p>On: signing in asks for a code from your authenticator app.</p>
          <NewRecoveryCodes user={user} onCodes={withNewCodes} />
          {mayTurnOff ? (
            <TurnOff user={user} onOff={session.updated} />
          ) : (
            <p className="hint">This workspace requires a second factor, so it stays on.</p>
          )}
        </>
      ) : (
        <>
          <p>Off. With it on, signing in also asks for a code from an authenticator app that shows a new 6-digit code every 30 seconds.</p>
          <MfaEnrollment userName={user.name} begin="Set up two-step verification" onEnabled={withNewCodes} />
        </>
      )}
    </section>
  );
}

function codeOf(form: FormData): string {
  return String(form.get("code")).replace(/\s/g, "");
}

function NewRecoveryCodes({ user, onCodes }: { user: User; onCodes(user: User): void }) {
  const { pending, error, onSubmit } = useSubmit(async (form) => {
    onCodes(await client(UserService).updateUser({ user: { name: user.name }, regenerateRecoveryCodes: true, otpCode: codeOf(form) }));
  });
  return (
    <form onSubmit={onSubmit} className="inline-form">
      <h3>New recovery codes</h3>
      <p className="hint">The ten codes you have now stop working.</p>
      <FormError message={error} />
      <Field label="Code from the app, for new recovery codes" name="code" inputMode="numeric" autoComplete="one-time-code" required />
      <SubmitButton pending={pending}>Replace the recovery codes</SubmitButton>
    </form>
  );
}

function TurnOff({ user, onOff }: { user: User; onOff(user: User): void }) {
  const { pending, error, onSubmit } = useSubmit(async (form) => {
    const off = { name: user.name, mfaEnabled: false };
    onOff(await client(UserService).updateUser({ user: off, updateMask: { paths: ["mfa_enabled"] }, otpCode: codeOf(form) }));
  });
  return (
    <form onSubmit={onSubmit} className="inline-form">
      <h3>Turn off</h3>
      <FormError message={error} />
      <Field label="Code from the app, to turn it off" name="code" inputMode="numeric" autoComplete="one-time-code" required />
      <SubmitButton pending={pending}>Turn off two-step verification</SubmitButton>
    </form>
  );
}
