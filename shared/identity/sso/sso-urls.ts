// The URLs of single sign-on (contract §4.8): callbacks are built on the
// workspace's external URL (the --external-url flag, else WORKSPACE_PROFILE),
// without which no sign-in can start; and the path a sign-in returns to must
// stay on this site.
import { failedPrecondition, invalidArgument, quoted } from "../../platform/index.ts";

export const OIDC_CALLBACK_PATH = "/v1/auth/oidc/callback";
export const SAML_ACS_PATH = "/v1/auth/saml/acs";

/** The external URL without a trailing slash; failed_precondition when there is none. */
export function ssoBaseUrl(externalUrl: string): string {
  if (!externalUrl) {
    throw failedPrecondition("the workspace has no external URL: set WORKSPACE_PROFILE.external_url (or --external-url); identity providers need it for their callback URLs");
  }
  return externalUrl.replace(/\/+$/, "");
}

/** The provider's callback URL for its type, or "" without an external URL. */
export function callbackUrl(type: "OIDC" | "SAML", externalUrl: string): string {
  return externalUrl ? `${externalUrl.replace(/\/+$/, "")}${type === "OIDC" ? OIDC_CALLBACK_PATH : SAML_ACS_PATH}` : "";
}

/**
 * The same-origin path to return to after sign-in (default "/"). Absolute
 * URLs, scheme-relative `//host` and backslash tricks are refused: only a
 * path on this site, which resolves against the external URL to itself.
 */
export function checkedRedirect(redirect: string, base: string): string {
  const path = redirect.trim() || "/";
  const origin = new URL(base).origin;
  const refused = !path.startsWith("/") || path.startsWith("//") || /[\\\x00-\x1f]/.test(path);
  if (refused || !URL.canParse(path, origin) || new URL(path, origin).origin !== origin) {
    throw invalidArgument(`redirect must be a path on this site such as /projects, got ${quoted(redirect)}`);
  }
  return path;
}
