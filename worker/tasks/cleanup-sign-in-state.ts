// maintenance.cleanupSignInState: deletes the sign-in state nothing reads any
// more (contract §4.2–§4.5, §4.8, §5.3): session families expired for a day,
// spent or expired password-reset links, expired e-mail codes, temp tokens of
// the second step and pending single sign-ons, SAML assertion ids past their
// expiry, rate-limit hits older than the sign-in window, and failure counts
// of login ids left alone for as long as a lock lasts, whose lock has ended.
// Live rows are never touched.
import type { Task } from "graphile-worker";
import { deleteExpiredEmailCodes } from "../../shared/identity/auth/email-code.store.ts";
import { LOCK_DURATION_MS } from "../../shared/identity/auth/lockout.ts";
import { deleteQuietLoginFailures } from "../../shared/identity/auth/login-failure.store.ts";
import { deleteExpiredMfaTempTokens } from "../../shared/identity/auth/mfa-temp-token.store.ts";
import { deleteDeadPasswordResetTokens } from "../../shared/identity/auth/password-reset-token.store.ts";
import { LOGIN_RATE_LIMIT } from "../../shared/identity/auth/rate-limit.ts";
import { deleteOldRateLimitHits } from "../../shared/identity/auth/rate-limit.store.ts";
import { deleteExpiredSessionTokens } from "../../shared/identity/auth/session.store.ts";
import { parseJobPayload } from "../../shared/platform/jobs/catalog.ts";
import type { Db } from "../../shared/platform/db.ts";
import { deleteExpiredSsoState } from "../../shared/identity/sso/sso-state.store.ts";

export function cleanupSignInState(db: Db): Task {
  return async (raw, helpers) => {
    parseJobPayload("maintenance.cleanupSignInState", raw);
    const deleted = {
      sessionTokens: await deleteExpiredSessionTokens(db),
      passwordResetTokens: await deleteDeadPasswordResetTokens(db),
      emailCodes: await deleteExpiredEmailCodes(db),
      mfaTempTokens: await deleteExpiredMfaTempTokens(db),
      ...(await deleteExpiredSsoState(db)),
      rateLimitHits: await deleteOldRateLimitHits(db, LOGIN_RATE_LIMIT.windowMs),
      loginFailures: await deleteQuietLoginFailures(db, LOCK_DURATION_MS),
    };
    const summary = Object.entries(deleted).map(([kind, count]) => `${count} ${kind}`).join(", ");
    helpers.logger.info(`deleted expired sign-in state: ${summary}`);
  };
}
