// The EMAIL setting as the mailer takes it (contract §7.8): the SMTP server,
// the sender, and the password still sealed.
import { EmailSetting_Authentication, EmailSetting_Smtp_Encryption, type EmailSetting } from "../../gen/svc/store/setting_integrations_pb.js";
import type { SmtpConfig } from "../../platform/index.ts";

const ENCRYPTIONS = new Map<EmailSetting_Smtp_Encryption, SmtpConfig["encryption"]>([
  [EmailSetting_Smtp_Encryption.NONE, "NONE"],
  [EmailSetting_Smtp_Encryption.STARTTLS, "STARTTLS"],
  [EmailSetting_Smtp_Encryption.SSL_TLS, "SSL_TLS"],
]);

/** Unspecified authentication is PLAIN. */
const AUTHENTICATIONS = new Map<EmailSetting_Authentication, SmtpConfig["authentication"]>([
  [EmailSetting_Authentication.NONE, "NONE"],
  [EmailSetting_Authentication.LOGIN, "LOGIN"],
]);

export function smtpConfig(email: EmailSetting): SmtpConfig {
  const smtp = email.smtp;
  return {
    from: email.from ?? "",
    fromName: email.fromName ?? "",
    host: smtp?.host ?? "",
    port: smtp?.port,
    username: smtp?.username ?? "",
    sealedPassword: smtp?.password || undefined,
    encryption: ENCRYPTIONS.get(smtp?.encryption ?? EmailSetting_Smtp_Encryption.ENCRYPTION_UNSPECIFIED),
    authentication: AUTHENTICATIONS.get(smtp?.authentication ?? EmailSetting_Authentication.AUTHENTICATION_UNSPECIFIED) ?? "PLAIN",
  };
}
