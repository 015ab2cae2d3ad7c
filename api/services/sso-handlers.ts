// AuthService's single sign-on RPCs (contract §4.1, §4.8): StartSso and the
// OIDC and SAML callbacks. They answer browser redirects: each sets the
// `location` header, which REST turns into 303 See Other (Connect and gRPC
// clients read the message instead). A successful callback sets the session
// cookies exactly as a web password sign-in does.
import type { HandlerContext, ServiceImpl } from "@connectrpc/connect";
import { create } from "@bufbuild/protobuf";
import { oidcSignIn, refusalStatus, samlSignIn, type SsoSignedIn, startSso } from "../../shared/identity/index.ts";
import { SsoLoginResponseSchema, type AuthService } from "../../shared/gen/svc/v1/auth_service_pb.js";
import { readWorkspaceProfile, type WorkspaceProfile } from "../../shared/governance/index.ts";
import { auditScope } from "../transport/audit-scope.ts";
import { requestFacts } from "../transport/context.ts";
import type { AuthDeps } from "./auth-service.ts";
import { setSessionCookies } from "./session-cookies.ts";
import { toUser } from "./user-convert.ts";

type SsoHandlers = Pick<ServiceImpl<typeof AuthService>, "startSso" | "oAuthCallback" | "samlAcs">;

export function ssoHandlers(deps: AuthDeps): SsoHandlers {

  /** Runs a callback's sign-in, counting its outcome; answers the session and the redirect. */
  const callback = async (context: HandlerContext, signIn: (profile: WorkspaceProfile) => Promise<SsoSignedIn>) => {
    const profile = await readWorkspaceProfile(deps.settings);
    let signedIn: SsoSignedIn;
    try {
      signedIn = await signIn(profile);
    } catch (error) {
      deps.metrics.authLogins.inc({ status: refusalStatus(auditScope(context)) });
      throw error;
    }
    deps.metrics.authLogins.inc({ status: "success" });
    setSessionCookies(context, signedIn.session, profile.externalUrl);
    context.responseHeader.set("location", signedIn.location);
    return create(SsoLoginResponseSchema, {
      redirect: signedIn.location,
      accessToken: signedIn.session.accessToken,
      refreshToken: signedIn.session.refreshToken,
      user: toUser(signedIn.user),
    });
  };

  return {
    async startSso(req, context) {
      const url = await startSso(deps, (await readWorkspaceProfile(deps.settings)).externalUrl, req.idpId, req.redirect);
      context.responseHeader.set("location", url);
      return { authorizationUrl: url };
    },
    async oAuthCallback(req, context) {
      const callbackFacts = { code: req.code, state: req.state, iss: req.iss, error: req.error, errorDescription: req.errorDescription };
      return callback(context, (profile) =>
        oidcSignIn(deps, auditScope(context), profile, requestFacts(context.values), profile.externalUrl, callbackFacts),
      );
    },
    async samlAcs(req, context) {
      return callback(context, (profile) =>
        samlSignIn(deps, auditScope(context), profile, requestFacts(context.values), profile.externalUrl, req.relayState, req.samlResponse),
      );
    },
  };
}
