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

/** The longest a send may take, from resolving the server to its answer to the message. */
const TIMEOUT_MS = 10_000;

/** Whether the configuration names an SMTP server and a sender. */
export function emailConfigured(smtp: SmtpConfig): boolean {
  return Boolean(smtp.host && smtp.from);
}

/**
 * Sends one message within `timeoutMs` (TIMEOUT_MS by default) all told:
 * each step's own timeout is no longer, and at the deadline the connection
 * is dropped wherever the conversation is, so that nothing of the message
 * goes out after the caller has given up on it.
 */
export async function sendMail(smtp: SmtpConfig, secrets: SecretBox, mail: Mail, timeoutMs = TIMEOUT_MS): Promise<void> {
  if (!emailConfigured(smtp)) throw failedPrecondition("e-mail is not configured: set settings/EMAIL (from and smtp.host) first");
  const password = smtp.sealedPassword ? secrets.open(smtp.sealedPassword) : "";
  const budget = Math.max(1, Math.min(timeoutMs, TIMEOUT_MS));
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.encryption === "SSL_TLS",
    requireTLS: smtp.encryption === "STARTTLS",
    ignoreTLS: smtp.encryption === "NONE",
    auth: smtp.authentication === "NONE" || !smtp.username ? undefined : { user: smtp.username, pass: password, method: smtp.authentication },
    connectionTimeout: budget,
    greetingTimeout: budget,
    socketTimeout: budget,
    dnsTimeout: budget,
  });
  const deadline = AbortSignal.timeout(budget);
  try {
    await transport.sendMail({ from: { name: smtp.fromName, address: smtp.from }, to: mail.to, subject: mail.subject, text: mail.text, signal: deadline });
  } catch (error) {
    const server = `the SMTP server ${smtp.host}:${smtp.port}`;
    if (deadline.aborted) throw unavailable(`${server} did not take the message within ${budget / 1000}s`, { cause: error });
    throw unavailable(`${server} refused the message: ${(error as Error).message}`, { cause: error });
  } finally {
    transport.close();
  }
}
