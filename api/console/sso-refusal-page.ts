// A single sign-on refused in a browser (contract §4.8): StartSso, the OIDC
// callback and the SAML ACS are pages the browser navigates to, so a refusal
// there would leave the user on a JSON error. A navigation (one that accepts
// text/html, which API clients do not send) is sent back to the console's
// sign-in page instead, with the refusal's message in `sso_error`; the
// page shows it as text. Other clients keep the JSON error.
import type { DescMethod } from "@bufbuild/protobuf";
import type { ConnectError } from "@connectrpc/connect";
import type { FastifyRequest } from "fastify";
import { AuthService } from "../../shared/gen/svc/v1/auth_service_pb.js";

const SSO_NAVIGATIONS: ReadonlySet<DescMethod> = new Set([AuthService.method.startSso, AuthService.method.oAuthCallback, AuthService.method.samlAcs]);

export const SIGN_IN_PAGE = "/auth/sign-in";

/** The message is the server's own, but kept short enough for an address. */
const MAX_MESSAGE = 500;

/** Where to send a browser whose sign-on `method` was refused, or undefined to answer the error. */
export function ssoRefusalPage(method: DescMethod, req: FastifyRequest, error: ConnectError): string | undefined {
  if (!SSO_NAVIGATIONS.has(method)) return undefined;
  if (!(req.headers.accept ?? "").includes("text/html")) return undefined;
  return `${SIGN_IN_PAGE}?sso_error=${encodeURIComponent(error.rawMessage.slice(0, MAX_MESSAGE))}`;
}
