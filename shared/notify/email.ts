// The EMAIL channel (contract §16.3): the people an event concerns
// (recipients.ts) each get one delivery, sent through the EMAIL setting's
// SMTP server with the mailer that sends sign-in codes. Nothing is written
// when EMAIL names no server. The subject is the message's headline, the
// body its plain text. A permanent SMTP refusal (5xx: no such mailbox, bad
// credentials) or an unconfigured server is final; anything else is tried
// again.
import { readSetting, type SettingReader, smtpConfig } from "../governance/index.ts";
import { DomainError, emailConfigured, sendMail, type SmtpConfig, userName } from "../platform/index.ts";
import type { Channel } from "./channel.ts";
import { messageText, plainText } from "./message-text.ts";
import type { NotificationPayload } from "./payload.ts";
import { recipientsOf } from "./recipients.ts";
import type { AttemptOutcome } from "./retry-policy.ts";
import { ATTEMPT_TIMEOUT_MS } from "./webhook-post.ts";

async function smtpOf(settings: SettingReader): Promise<SmtpConfig> {
  return smtpConfig(await readSetting(settings, "EMAIL"));
}

export const emailChannel: Channel = {
  name: "EMAIL",
  async targets(tx, event, settings) {
    if (!emailConfigured(await smtpOf(settings))) return [];
    return (await recipientsOf(tx, event)).map((person) => ({ target: userName(person.loginId), address: person.email }));
  },
  async send(delivery, context) {
    // The attempt's 10 s cover the setting's read and the whole SMTP conversation: the delivery's lease outlasts it.
    const deadline = Date.now() + ATTEMPT_TIMEOUT_MS;
    const text = messageText(delivery.payload as NotificationPayload);
    try {
      const smtp = await smtpOf(context.settings); // as stored now
      await sendMail(smtp, context.secrets, { to: delivery.address, subject: text.headline, text: plainText(text) }, deadline - Date.now());
      return { kind: "sent" };
    } catch (error) {
      return mailOutcome(error as Error);
    }
  },
};

function mailOutcome(error: Error): AttemptOutcome {
  const smtpCode = (error.cause as { responseCode?: number } | undefined)?.responseCode ?? 0;
  const final = (error instanceof DomainError && error.code === "failed_precondition") || smtpCode >= 500;
  return { kind: final ? "failed" : "retry", error: error.message };
}
