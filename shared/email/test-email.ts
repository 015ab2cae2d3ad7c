// SettingService.TestEmailSetting (contract §7.8): a test message through the
// given EMAIL configuration, merged over the stored one as a write of the
// whole payload would be (so a password it leaves out is the stored one),
// or through the stored configuration itself.
import type { EmailSetting } from "../gen/svc/v1/setting_integrations_pb.js";
import { invalidArgument } from "../platform/errors.ts";
import type { SecretBox } from "../secrets/secret-box.ts";
import { settingKind } from "../settings/setting-catalog.ts";
import { effectiveValue } from "../settings/setting-value.ts";
import { mergeWrite } from "../settings/update-setting.ts";
import { validateEmail } from "../settings/validation/integrations.ts";
import { parseEmail } from "../user/email.ts";
import { sendMail } from "./mailer.ts";

export async function sendTestEmail(
  stored: Record<string, unknown> | undefined,
  given: EmailSetting | undefined,
  secrets: SecretBox,
  recipient: string,
  workspaceTitle: string,
): Promise<void> {
  const to = parseEmail(recipient, "to");
  if (!to) throw invalidArgument("to: the recipient of the test message is required");
  const kind = settingKind("EMAIL");
  const current = effectiveValue(kind, stored);
  const email = (given ? mergeWrite(kind, current, given, [[]], secrets) : current) as EmailSetting;
  validateEmail(email);
  await sendMail(email, secrets, {
    to,
    subject: `${workspaceTitle}: test message`,
    text: `This message was sent to test the e-mail settings of ${workspaceTitle}. Nothing else needs to be done.`,
  });
}
