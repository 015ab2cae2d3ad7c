// Sends e-mail through the SMTP server of the EMAIL setting (contract §7.8)
// with nodemailer. Used directly, not through the notification queue, for
// what a person is waiting for: sign-in codes, password-reset links and the
// setting's test message. The SMTP password is opened only here.
import nodemailer from "nodemailer";
import type { EmailSetting } from "../../gen/svc/v1/setting_integrations_pb.js";
import { EmailSetting_Authentication, EmailSetting_Smtp_Encryption } from "../../gen/svc/v1/setting_integrations_pb.js";
import { failedPrecondition, unavailable } from "../errors.ts";
import type { SecretBox } from "../secrets/secret-box.ts";

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

const TIMEOUT_MS = 10_000;

/** Whether the setting names an SMTP server and a sender. */
export function emailConfigured(email: EmailSetting): boolean {
  return Boolean(email.smtp?.host && email.from);
}

export async function sendMail(email: EmailSetting, secrets: SecretBox, mail: Mail): Promise<void> {
  if (!emailConfigured(email)) throw failedPrecondition("e-mail is not configured: set settings/EMAIL (from and smtp.host) first");
  const smtp = email.smtp!;
  const password = smtp.password ? secrets.open(smtp.password) : "";
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.encryption === EmailSetting_Smtp_Encryption.SSL_TLS,
    requireTLS: smtp.encryption === EmailSetting_Smtp_Encryption.STARTTLS,
    ignoreTLS: smtp.encryption === EmailSetting_Smtp_Encryption.NONE,
    auth:
      smtp.authentication === EmailSetting_Authentication.NONE || !smtp.username
        ? undefined
        : { user: smtp.username, pass: password, method: smtp.authentication === EmailSetting_Authentication.LOGIN ? "LOGIN" : "PLAIN" },
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  try {
    await transport.sendMail({ from: { name: email.fromName ?? "", address: email.from! }, to: mail.to, subject: mail.subject, text: mail.text });
  } catch (error) {
    throw unavailable(`the SMTP server ${smtp.host}:${smtp.port} refused the message: ${(error as Error).message}`, { cause: error });
  } finally {
    transport.close();
  }
}
