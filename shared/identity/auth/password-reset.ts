// Forgotten password (contract §5.3): RequestPasswordReset mails a link with a
// single-use token valid 30 minutes to each active local end user with the
// address, in place of the user's earlier link (account-mail.ts: the reply
// does not wait for the mail, and is the same whether or not a user has the
// address); ResetPassword sets the new password under the policy, spends the
// user's links and revokes all its sessions. Both count toward the client
// IP's sign-in limit (§4.5). Tokens are stored as SHA-256 hashes.
import type { CallAudit, WorkspaceProfile } from "../../governance/index.ts";
import { mailAddressHolders, type AccountMailDeps } from "./account-mail.ts";
import { type Db, invalidArgument, type Logger, unauthenticated, userName } from "../../platform/index.ts";
import { hashPassword } from "../user/password-hash.ts";
import { assertPasswordAllowed } from "../user/password-policy.ts";
import { replacePassword } from "../user/replace-password.ts";
import { findUserById } from "../user/user.store.ts";
import { lockPasswordResetToken, replacePasswordResetToken } from "./password-reset-token.store.ts";
import { LOGIN_RATE_LIMIT, takeRateLimit } from "./rate-limit.ts";
import type { ClientFacts } from "./sessions.ts";
import { newPasswordResetToken, tokenHash } from "./tokens.ts";

export const PASSWORD_RESET_LIFETIME_MS = 30 * 60_000;
/** The page of the web client that takes the token and asks for the new password. */
export const PASSWORD_RESET_PATH = "/auth/password-reset";

export interface PasswordResetInput {
  token: string;
  newPassword: string;
}

/** `externalUrl`: the workspace's effective external URL ("" when none), the base of the link. */
export async function requestPasswordReset(
  deps: AccountMailDeps,
  profile: WorkspaceProfile,
  externalUrl: string,
  client: ClientFacts,
  logger: Logger,
  emailText: string,
): Promise<void> {
  await mailAddressHolders(deps, client, logger, emailText, {
    what: "password-reset link",
    issue: async (user) => {
      const token = newPasswordResetToken();
      await replacePasswordResetToken(deps.db, tokenHash(token), user.id, PASSWORD_RESET_LIFETIME_MS);
      return { to: user.email, subject: `${profile.title}: reset your password`, text: resetMailText(profile.title, externalUrl, user.loginId, token) };
    },
  });
}

/** Sets the password of the link's user; `sideDb` carries the rate-limit counter, which commits on its own. */
export async function resetPassword(sideDb: Db, audit: CallAudit, profile: WorkspaceProfile, client: ClientFacts, input: PasswordResetInput): Promise<void> {
  await takeRateLimit(sideDb, LOGIN_RATE_LIMIT, client.clientIp);
  if (!input.token) throw invalidArgument("token: the token of the password-reset link is required");
  const tx = audit.tx;
  const link = await lockPasswordResetToken(tx, tokenHash(input.token));
  const user = link?.usable ? await findUserById(tx, link.principalId) : undefined;
  if (!user || user.state !== "ACTIVE" || user.source !== "LOCAL") {
    throw unauthenticated("the password-reset token is invalid, used or expired; request a new link");
  }
  audit.actor = audit.resource = userName(user.loginId);
  audit.detail = { via: "e-mail link" };
  assertPasswordAllowed(input.newPassword, profile.passwordRestriction, "new_password");
  await replacePassword(tx, user, await hashPassword(input.newPassword), { requireReset: false });
}

function resetMailText(title: string, externalUrl: string, loginId: string, token: string): string {
  const target = `${PASSWORD_RESET_PATH}?token=${token}`;
  const open = externalUrl
    ? [`Open this link to choose a new password:`, `${externalUrl.replace(/\/+$/, "")}${target}`]
    : [`Open ${target} on the workspace's site to choose a new password,`, `or send the token ${token} with the new password to POST /v1/auth:resetPassword.`];
  return [
    `Someone asked to reset the password of ${loginId} on ${title}.`,
    ...open,
    `The link is valid for ${PASSWORD_RESET_LIFETIME_MS / 60_000} minutes and works once.`,
    "If you did not ask for it, ignore this message: your password stays as it is.",
  ].join("\n");
}
