// maintenance.cleanupSignInState: deletes the sign-in state nothing reads any
// more (contract §4.2–§4.5, §4.8, §5.3): session families expired for a day,
// spent or expired password-reset links, expired e-mail codes, temp tokens of
// the second step and pending single sign-ons, SAML assertion ids past their
// expiry, rate-limit hits older than the sign-in window, and failure counts
// of login ids left alone for as long as a lock lasts, whose lock has ended.
// Live rows are never touched.
import type { Task } from "graphile-worker";
import {
  deleteDeadPasswordResetTokens,
  deleteExpiredEmailCodes,
  deleteExpiredMfaTempTokens,
  deleteExpiredSessionTokens,
  deleteExpiredSsoState,
  deleteOldRateLimitHits,
  deleteQuietLoginFailures,
  LOCK_DURATION_MS,
  LOGIN_RATE_LIMIT,
} from "../../shared/identity/index.ts";
import { type Db, parseJobPayload } from "../../shared/platform/index.ts";

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
