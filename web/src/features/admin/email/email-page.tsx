// The SMTP server (contract §7.5) for notifications, e-mail codes and
// password resets: the password is input-only, shown only as set or not; a
// test message to an address through the stored server.
import { EmailSetting_Authentication, EmailSetting_Smtp_Encryption, EmailSettingSchema } from "@gen/svc/v1/setting_integrations_pb.js";
import { SettingService } from "@gen/svc/v1/setting_service_pb.js";
import { useState } from "react";
import { client } from "../../../api/clients.ts";
import { Alert, FormError } from "../../../components/alert.tsx";
import { Field } from "../../../components/field.tsx";
import { SubmitButton } from "../../../components/submit-button.tsx";
import { useAction } from "../../../hooks/use-action.ts";
import { usePermissions, WORKSPACE } from "../../iam/use-permissions.ts";
import { SettingForm } from "../settings/setting-form.tsx";
import type { SettingField } from "../settings/setting-fields.ts";
import { SettingPage } from "../settings/setting-page.tsx";
import { useSetting } from "../settings/use-setting.ts";

const EMAIL_FIELDS: readonly SettingField[] = [
  { path: "from", label: "From address", kind: "email" },
  { path: "fromName", label: "From name", kind: "text" },
  { path: "smtp.host", label: "SMTP host", kind: "text" },
  { path: "smtp.port", label: "SMTP port", kind: "int" },
  {
    path: "smtp.encryption",
    label: "Encryption",
    kind: "select",
    choices: [
      { value: EmailSetting_Smtp_Encryption.NONE, label: "None" },
      { value: EmailSetting_Smtp_Encryption.STARTTLS, label: "STARTTLS" },
      { value: EmailSetting_Smtp_Encryption.SSL_TLS, label: "SSL/TLS" },
    ],
  },
  {
    path: "smtp.authentication",
    label: "Authentication",
    kind: "select",
    choices: [
      { value: EmailSetting_Authentication.NONE, label: "None" },
      { value: EmailSetting_Authentication.PLAIN, label: "PLAIN" },
      { value: EmailSetting_Authentication.LOGIN, label: "LOGIN" },
    ],
  },
  { path: "smtp.username", label: "SMTP user name", kind: "text" },
  { path: "smtp.password", label: "SMTP password", kind: "secret", setFlag: "smtp.passwordSet" },
];

export function EmailPage() {
  const setting = useSetting("email");
  const permissions = usePermissions(WORKSPACE, ["bb.settings.set"]);
  return (
    <SettingPage title="E-mail" setting={setting}>
      <SettingForm setting={setting} schema={EmailSettingSchema} heading="SMTP server" fields={EMAIL_FIELDS} />
      {setting.payload && permissions.can("bb.settings.set") && <EmailTest />}
    </SettingPage>
  );
}

function EmailTest() {
  const test = useAction();
  const [sentTo, setSentTo] = useState<string>();
  const send = (to: string) =>
    test.run(async () => {
      setSentTo(undefined);
      await client(SettingService).testEmailSetting({ to });
      setSentTo(to);
    });
  return (
    <section className="admin-card" aria-labelledby="email-test-heading">
      <h2 id="email-test-heading">Test message</h2>
      <form onSubmit={(event) => (event.preventDefault(), void send(String(new FormData(event.currentTarget).get("to")).trim()))}>
        <Field label="Send a test message to" name="to" type="email" required hint="Through the saved server." />
        <FormError message={test.error} />
        {sentTo && <Alert tone="success">The server took the message for {sentTo}.</Alert>}
        <SubmitButton pending={test.pending}>Send a test message</SubmitButton>
      </form>
    </section>
  );
}
