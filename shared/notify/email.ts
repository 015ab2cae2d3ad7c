// The EMAIL channel (contract §16.3): the people an event concerns
// (recipients.ts) each get one delivery, sent through the EMAIL setting's
// SMTP server with the mailer that sends sign-in codes. Nothing is written
// when EMAIL names no server. The subject is the message's headline, the
// body its plain text. A permanent SMTP refusal (5xx: no such mailbox, bad
// credentials) or an unconfigured server is final; anything else is tried
// again.
import type { CommonQueryMethods } from "slonik";
import { readSetting, smtpConfig, storedSettings } from "../governance/index.ts";
import { DomainError, emailConfigured, sendMail, type SmtpConfig, userName } from "../platform/index.ts";
import type { Channel } from "./channel.ts";
import { messageText, plainText } from "./message-text.ts";
import type { NotificationPayload } from "./payload.ts";
import { recipientsOf } from "./recipients.ts";
import type { AttemptOutcome } from "./retry-policy.ts";

/** The EMAIL setting as stored now (not a process's cached copy). */
async function smtpNow(db: CommonQueryMethods): Promise<SmtpConfig> {
  return smtpConfig(await readSetting(storedSettings(db), "EMAIL"));
}

export const emailChannel: Channel = {
  name: "EMAIL",
  async targets(tx, event) {
    if (!emailConfigured(await smtpNow(tx))) return [];
    return (await recipientsOf(tx, event)).map((person) => ({ target: userName(person.loginId), address: person.email }));
  },
  async send(delivery, context) {
    const text = messageText(delivery.payload as NotificationPayload);
    try {
      await sendMail(await smtpNow(context.db), context.secrets, { to: delivery.address, subject: text.headline, text: plainText(text) });
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
