// Where a session may be: the page a visitor asked for, or where to send them instead.
import type { SessionState } from "../features/auth/session-state.ts";
import { paths, PUBLIC_PATHS, safeReturnPath, SIGNED_OUT_PATHS, withReturnPath } from "./paths.ts";

export type GuardDecision = { kind: "wait" } | { kind: "show" } | { kind: "redirect"; to: string };

const RESTRICTED_PAGE = { "password-change": paths.passwordChange, "mfa-enrollment": paths.mfaEnrollment } as const;
const RESTRICTED_PAGES: readonly string[] = Object.values(RESTRICTED_PAGE);

/**
 * `path` is the pathname; `search` the query string. The sign-in and
 * restricted pages carry the page to return to in `?redirect=`.
 */
export function guard(session: SessionState, path: string, search: string): GuardDecision {
  if (PUBLIC_PATHS.includes(path)) return { kind: "show" };
  if (session.status === "loading") return { kind: "wait" };
  const onAuthPage = SIGNED_OUT_PATHS.includes(path) || RESTRICTED_PAGES.includes(path);
  const back = onAuthPage ? safeReturnPath(new URLSearchParams(search).get("redirect")) : path + search;
  if (session.status === "signed-out") {
    if (SIGNED_OUT_PATHS.includes(path)) return { kind: "show" };
    // After signing out, the next user starts afresh rather than on the last one's page.
    return { kind: "redirect", to: session.reason === "signed-out" ? paths.signIn : withReturnPath(paths.signIn, back) };
  }
  if (session.restriction) {
    const page = RESTRICTED_PAGE[session.restriction];
    return path === page ? { kind: "show" } : { kind: "redirect", to: withReturnPath(page, back) };
  }
  return onAuthPage ? { kind: "redirect", to: back } : { kind: "show" };
}
