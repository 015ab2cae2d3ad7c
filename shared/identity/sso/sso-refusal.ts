// Why a single sign-on was refused, as recorded in bb.auth.login.fail's
// detail (contract §8.1) and counted as a failure by svc_auth_login_total.
import type { CallAudit } from "../../governance/index.ts";
import { refuse } from "../auth/login-refusal.ts";

export const SsoRefusal = {
  unknownState: "unknown, expired or spent sign-in state",
  wrongProvider: "identity provider changed or removed",
  rejectedAnswer: "identity provider answer rejected",
  unverifiedEmail: "e-mail address not verified by the identity provider",
  badLoginId: "invalid login id from the identity provider",
  signupDisabled: "sign-up is disabled",
  localAccount: "local account with the same login id",
  inactiveUser: "user deleted or not an end user",
  outsideDomains: "e-mail outside the workspace's domains",
} as const;

/** The outcome of `work`, or its error recorded with `reason` (when `recorded` is given, only an error it accepts). */
export async function refusing<T>(audit: CallAudit, reason: string, work: Promise<T>, recorded?: (error: unknown) => boolean): Promise<T> {
  try {
    return await work;
  } catch (error) {
    throw !recorded || recorded(error) ? refuse(audit, reason, error as Error) : error;
  }
}
