// E-mail sign-in codes (contract §4.1, §4.2): SendEmailCode mails a 6-digit
// code to every active local end user with the address, in place of the
// user's earlier code (account-mail.ts: the reply does not wait for the mail,
// and is the same whether or not a user has the address). A user of an
// identity provider gets none: it signs in there. A code is valid 10
// minutes, works once and dies after 5 wrong tries; it is stored only as a
// SHA-256 hash bound to the principal id.
import { randomInt } from "node:crypto";
import type { CommonQueryMethods } from "slonik";
import { mailAddressHolders, type AccountMailDeps } from "./account-mail.ts";
import { failedPrecondition, type Logger } from "../../platform/index.ts";
import type { WorkspaceProfile } from "../../governance/index.ts";
import { countEmailCodeFailure, deleteEmailCode, lockEmailCode, replaceEmailCode } from "./email-code.store.ts";
import type { ClientFacts } from "./sessions.ts";
import { tokenHash } from "./tokens.ts";

export const EMAIL_CODE_LIFETIME_MS = 10 * 60_000;
export const EMAIL_CODE_MAX_FAILURES = 5;
export const EMAIL_CODE_DISABLED = "e-mail code sign-in is not enabled for this workspace (workspace_profile.allow_email_code_signin)";

/** Mails a new code to each active local end user with this address; counts toward the client IP's sign-in limit (§4.5). */
export async function sendEmailCode(deps: AccountMailDeps, profile: WorkspaceProfile, client: ClientFacts, logger: Logger, emailText: string): Promise<void> {
  await mailAddressHolders(deps, client, logger, emailText, {
    what: "e-mail sign-in code",
    precondition: () => {
      if (!profile.allowEmailCodeSignin) throw failedPrecondition(EMAIL_CODE_DISABLED);
    },
    issue: async (user) => {
      const code = String(randomInt(1_000_000)).padStart(6, "0");
      await replaceEmailCode(deps.db, user.id, emailCodeHash(user.id, code), EMAIL_CODE_LIFETIME_MS);
      return {
        to: user.email,
        subject: `${profile.title}: your sign-in code`,
        text: [
          `Your sign-in code for ${profile.title} is ${code} (login id ${user.loginId}).`,
          `It is valid for ${EMAIL_CODE_LIFETIME_MS / 60_000} minutes and works once.`,
          "If you did not ask for it, ignore this message.",
        ].join("\n"),
      };
    },
  });
}

export type EmailCodeCheck = { valid: true } | { valid: false; codeFailures?: number };

/**
 * Checks `code` against the user's current code: a match spends it; a
 * mismatch is counted, and the 5th voids the code. An expired or missing code
 * never matches.
 */
export async function checkEmailCode(tx: CommonQueryMethods, principalId: number, code: string): Promise<EmailCodeCheck> {
  const row = await lockEmailCode(tx, principalId, emailCodeHash(principalId, code.trim()));
  if (!row || row.expired) return { valid: false };
  if (row.matches) {
    await deleteEmailCode(tx, principalId);
    return { valid: true };
  }
  const codeFailures = await countEmailCodeFailure(tx, principalId);
  if (codeFailures >= EMAIL_CODE_MAX_FAILURES) await deleteEmailCode(tx, principalId);
  return { valid: false, codeFailures };
}

function emailCodeHash(principalId: number, code: string): Buffer {
  return tokenHash(`${principalId}:${code}`);
}
