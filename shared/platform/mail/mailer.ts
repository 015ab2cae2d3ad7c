// Sends e-mail through an SMTP server (the EMAIL setting's, contract §7.8)
// with nodemailer. Used directly, not through the notification queue, for
// what a person is waiting for: sign-in codes, password-reset links and the
// setting's test message. The SMTP password is opened only here.
import nodemailer from "nodemailer";
import { failedPrecondition, unavailable } from "../errors.ts";
import type { SecretBox } from "../secrets/secret-box.ts";

export interface SmtpConfig {
  /** The sender's address and display name. */
  from: string;
  fromName: string;
  host: string;
  port: number | undefined;
  username: string;
  /** Sealed with the SecretBox; undefined when none is stored. */
  sealedPassword: string | undefined;
  /** undefined: TLS when the server offers it. */
  encryption: "NONE" | "STARTTLS" | "SSL_TLS" | undefined;
  authentication: "NONE" | "PLAIN" | "LOGIN";
}

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

const TIMEOUT_MS = 10_000;

/** Whether the configuration names an SMTP server and a sender. */
export function emailConfigured(smtp: SmtpConfig): boolean {
  return Boolean(smtp.host && smtp.from);
}

export async function sendMail(smtp: SmtpConfig, secrets: SecretBox, mail: Mail): Promise<void> {
  if (!emailConfigured(smtp)) throw failedPrecondition("e-mail is not configured: set settings/EMAIL (from and smtp.host) first");
  const password = smtp.sealedPassword ? secrets.open(smtp.sealedPassword) : "";
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.encryption === "SSL_TLS",
    requireTLS: smtp.encryption === "STARTTLS",
    ignoreTLS: smtp.encryption === "NONE",
    auth: smtp.authentication === "NONE" || !smtp.username ? undefined : { user: smtp.username, pass: password, method: smtp.authentication },
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
    socketTimeout: TIMEOUT_MS,
  });
  try {
    await transport.sendMail({ from: { name: smtp.fromName, address: smtp.from }, to: mail.to, subject: mail.subject, text: mail.text });
  } catch (error) {
    throw unavailable(`the SMTP server ${smtp.host}:${smtp.port} refused the message: ${(error as Error).message}`, { cause: error });
  } finally {
    transport.close();
  }
}
