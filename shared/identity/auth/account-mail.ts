// Mail to a user about its own account: e-mail sign-in codes (contract §4.2)
// and password-reset links (§5.3), both asked for by e-mail address. The
// request answers the same empty OK, at the same pace, whether or not the
// address belongs to a user: the new code or link is stored during the call,
// and the mail goes out afterwards, in the background, through the EMAIL
// setting's SMTP server. A failed delivery goes to the operational log, never
// to the reply; log lines name the user, never the code or link.
import { type Db, failedPrecondition, type Logger, requireEmail, type SecretBox, userName } from "../../platform/index.ts";
import { LOGIN_RATE_LIMIT, takeRateLimit } from "./rate-limit.ts";
import type { ClientFacts } from "./sessions.ts";
import { readSetting, type SettingReader, smtpConfig } from "../../governance/index.ts";
import { findActiveLocalUsersByEmail, type UserRow } from "../user/user.store.ts";
import { emailConfigured, type Mail, sendMail, type SmtpConfig } from "../../platform/index.ts";

/** What the calls that mail a user need. */
export interface AccountMailDeps {
  db: Db;
  /** Carries the per-IP counter, which commits whatever the call does. */
  sideDb: Db;
  settings: SettingReader;
  /** Opens the SMTP password. */
  secrets: SecretBox;
}

/** One kind of account mail. */
export interface AccountMailKind {
  /** Its name in log lines, e.g. "password-reset link". */
  what: string;
  /** Refuses the request before the address is looked at (e.g. a feature turned off). */
  precondition?: () => void;
  /** Stores a new code or link for `user` (in place of its earlier one) and answers the mail that carries it. */
  issue: (user: UserRow) => Promise<Mail>;
}

/**
 * The flow of SendEmailCode and RequestPasswordReset: counts the request
 * toward the client IP's sign-in limit (§4.5), checks the address and the
 * EMAIL setting, issues a new code or link to each active local end user with
 * the address (a user of an identity provider signs in there), and leaves the
 * delivery to run after the reply.
 */
export async function mailAddressHolders(deps: AccountMailDeps, client: ClientFacts, logger: Logger, emailText: string, kind: AccountMailKind): Promise<void> {
  await takeRateLimit(deps.sideDb, LOGIN_RATE_LIMIT, client.clientIp);
  kind.precondition?.();
  const address = requireEmail(emailText, "email");
  const smtp = await configuredSmtp(deps.settings);
  const holders = await findActiveLocalUsersByEmail(deps.db, address);
  if (holders.length === 0) logger.info({ mail: kind.what }, "no active local user has the requested address; nothing sent");
  const deliveries: Delivery[] = [];
  for (const user of holders) deliveries.push({ user: userName(user.loginId), mail: await kind.issue(user) });
  setImmediate(() => void deliver({ smtp, secrets: deps.secrets, logger }, kind.what, deliveries));
}

interface Delivery {
  /** users/<login id>, for the log. */
  user: string;
  mail: Mail;
}

interface AccountMailer {
  smtp: SmtpConfig;
  secrets: SecretBox;
  /** The request's logger (it carries the correlation id). */
  logger: Logger;
}

/** The EMAIL setting's server (its password sealed); failed_precondition when it names none. */
async function configuredSmtp(settings: SettingReader): Promise<SmtpConfig> {
  const smtp = smtpConfig(await readSetting(settings, "EMAIL"));
  if (!emailConfigured(smtp)) throw failedPrecondition("e-mail is not configured: an administrator sets settings/EMAIL (from and smtp.host) first");
  return smtp;
}

/** Sends the mails one after the other; each outcome is logged, none is thrown. */
async function deliver(mailer: AccountMailer, what: string, deliveries: readonly Delivery[]): Promise<void> {
  for (const { user, mail } of deliveries) {
    try {
      await sendMail(mailer.smtp, mailer.secrets, mail);
      mailer.logger.info({ user, mail: what }, `${what} sent`);
    } catch (error) {
      mailer.logger.warn({ user, mail: what, reason: (error as Error).message }, `${what} could not be sent`);
    }
  }
}
