// The sign-in state nothing reads any more (contract §4.2–§4.5, §4.8, §5.3):
// session families expired for a day, spent or expired password-reset links,
// expired e-mail codes, temp tokens of the second step and pending single
// sign-ons, SAML assertion ids past their expiry, rate-limit hits older than
// the sign-in window, per-user request counts of minutes that have left the
// per-user window, and failure counts of login ids left alone for as long
// as a lock lasts, whose lock has ended. Live rows are never touched.
import type { CommonQueryMethods } from "slonik";
import { deleteExpiredSsoState } from "../sso/sso-state.store.ts";
import { deleteExpiredEmailCodes } from "./email-code.store.ts";
import { LOCK_DURATION_MS } from "./lockout.ts";
import { deleteQuietLoginFailures } from "./login-failure.store.ts";
import { deleteOldPrincipalRequestCounts } from "./principal-request-count.store.ts";
import { deleteExpiredMfaTempTokens } from "./mfa-temp-token.store.ts";
import { deleteDeadPasswordResetTokens } from "./password-reset-token.store.ts";
import { deleteOldRateLimitHits } from "./rate-limit.store.ts";
import { LOGIN_RATE_LIMIT } from "./rate-limit.ts";
import { deleteExpiredSessionTokens } from "./session.store.ts";

/** Deletes it; answers how many rows of each kind went. */
export async function deleteSpentSignInState(db: CommonQueryMethods): Promise<Record<string, number>> {
  return {
    sessionTokens: await deleteExpiredSessionTokens(db),
    passwordResetTokens: await deleteDeadPasswordResetTokens(db),
    emailCodes: await deleteExpiredEmailCodes(db),
    mfaTempTokens: await deleteExpiredMfaTempTokens(db),
    ...(await deleteExpiredSsoState(db)),
    rateLimitHits: await deleteOldRateLimitHits(db, LOGIN_RATE_LIMIT.windowMs),
    principalRequestCounts: await deleteOldPrincipalRequestCounts(db),
    loginFailures: await deleteQuietLoginFailures(db, LOCK_DURATION_MS),
  };
}
