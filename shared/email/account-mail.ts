// Mail to a user about its own account: e-mail sign-in codes (contract §4.2)
// and password-reset links (§5.3). Sent at once through the EMAIL setting's
// SMTP server, since a person is waiting for it. A failed delivery goes to
// the operational log and is never answered: the reply must not tell whether
// an address belongs to a user. Log lines name the user, never the content.
import type { EmailSetting } from "../gen/svc/v1/setting_integrations_pb.js";
import type { Db } from "../platform/db.ts";
import { failedPrecondition } from "../platform/errors.ts";
import type { Logger } from "../platform/logger.ts";
import type { SecretBox } from "../secrets/secret-box.ts";
import type { SettingReader } from "../settings/setting-cache.ts";
import { settingKind } from "../settings/setting-catalog.ts";
import { effectiveValue } from "../settings/setting-value.ts";
import { emailConfigured, sendMail, type Mail } from "./mailer.ts";

/** What the calls that mail a user need. */
export interface AccountMailDeps {
  db: Db;
  /** Carries the per-IP counter, which commits whatever the call does. */
  sideDb: Db;
  settings: SettingReader;
  /** Opens the SMTP password. */
  secrets: SecretBox;
}

export interface AccountMailer {
  email: EmailSetting;
  secrets: SecretBox;
  /** The request's logger (it carries the correlation id). */
  logger: Logger;
}

/** The EMAIL setting (credentials sealed); failed_precondition when it names no SMTP server. */
export async function configuredEmail(settings: SettingReader): Promise<EmailSetting> {
  const email = effectiveValue(settingKind("EMAIL"), await settings.get("EMAIL")) as EmailSetting;
  if (!emailConfigured(email)) throw failedPrecondition("e-mail is not configured: an administrator sets settings/EMAIL (from and smtp.host) first");
  return email;
}

/** Sends `mail` about `user` (users/<login id>, for the log); a failure is logged, not thrown. */
export async function deliverAccountMail(mailer: AccountMailer, user: string, what: string, mail: Mail): Promise<void> {
  try {
    await sendMail(mailer.email, mailer.secrets, mail);
    mailer.logger.info({ user, mail: what }, `${what} sent`);
  } catch (error) {
    mailer.logger.warn({ user, mail: what, reason: (error as Error).message }, `${what} could not be sent`);
  }
}
