// SettingService.TestEmailSetting (contract §7.8): a test message through the
// given EMAIL configuration, merged over the stored one as a write of the
// whole payload would be, or through the stored configuration itself. The
// stored password goes only to the stored server: a given configuration that
// names another host, port or username and no password has none.
import type { EmailSetting, EmailSetting_Smtp } from "../../gen/svc/store/setting_integrations_pb.js";
import { invalidArgument, parseEmail, type SecretBox, sendMail } from "../../platform/index.ts";
import { smtpConfig } from "./email.ts";
import { settingKind } from "./setting-catalog.ts";
import { effectiveValue } from "./setting-value.ts";
import { mergeWrite } from "./update-setting.ts";
import { validateEmail } from "./validation/integrations.ts";

export async function sendTestEmail(
  stored: Record<string, unknown> | undefined,
  /** Without the API's output-only fields. */
  given: EmailSetting | undefined,
  secrets: SecretBox,
  recipient: string,
  workspaceTitle: string,
): Promise<void> {
  const to = parseEmail(recipient, "to");
  if (!to) throw invalidArgument("to: the recipient of the test message is required");
  const kind = settingKind("EMAIL");
  const current = effectiveValue(kind, stored) as EmailSetting;
  const email = given ? (mergeWrite(kind, current, given, [[]], secrets) as EmailSetting) : current;
  if (given && !given.smtp?.password && email.smtp && !sameServer(current.smtp, email.smtp)) email.smtp.password = undefined;
  validateEmail(email);
  await sendMail(smtpConfig(email), secrets, {
    to,
    subject: `${workspaceTitle}: test message`,
    text: `This message was sent to test the e-mail settings of ${workspaceTitle}. Nothing else needs to be done.`,
  });
}

function sameServer(a: EmailSetting_Smtp | undefined, b: EmailSetting_Smtp): boolean {
  return a?.host === b.host && a?.port === b.port && a?.username === b.username;
}
