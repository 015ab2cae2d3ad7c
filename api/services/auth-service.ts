// AuthService: sign-in, token refresh and sign-out (contract §4.1–§4.3);
// single sign-on and the e-mail RPCs live in sso-handlers.ts and
// email-auth-handlers.ts.
import { create } from "@bufbuild/protobuf";
import { Code, ConnectError, type HandlerContext } from "@connectrpc/connect";
import {
  emailCodeLogin,
  endSession,
  findUserById,
  type IssuedSession,
  type LoginResult,
  passwordChangeDue,
  passwordLogin,
  refreshSession,
  refusalStatus,
  secondFactorLogin,
  sessionPolicyOf,
  type UserRow,
} from "../../shared/identity/index.ts";
import { AuthService, LoginResponseSchema } from "../../shared/gen/svc/v1/auth_service_pb.js";
import type { Db, Metrics, SecretBox } from "../../shared/platform/index.ts";
import { readWorkspaceProfile, type SettingReader, type WorkspaceProfile } from "../../shared/governance/index.ts";
import { auditScope } from "../transport/audit-scope.ts";
import { requestFacts } from "../transport/context.ts";
import { cookieValue, REFRESH_COOKIE } from "../transport/cookies.ts";
import { kPrincipal } from "../transport/interceptors/authn.ts";
import { registration } from "../transport/services.ts";
import { emailAuthHandlers } from "./email-auth-handlers.ts";
import { clearSessionCookies, setSessionCookies } from "./session-cookies.ts";
import { ssoHandlers } from "./sso-handlers.ts";
import { toUser } from "./user-convert.ts";

export interface AuthDeps {
  db: Db;
  sideDb: Db;
  metrics: Metrics;
  settings: SettingReader;
  /** Opens the sealed TOTP secrets and the SMTP password. */
  secrets: SecretBox;
}

export function authService(deps: AuthDeps) {
  const profileOf = () => readWorkspaceProfile(deps.settings);
  const reply = (context: HandlerContext, profile: WorkspaceProfile, web: boolean, session: IssuedSession, user: UserRow, requireResetPassword: boolean) => {
    if (web) setSessionCookies(context, session, profile.externalUrl);
    return create(LoginResponseSchema, {
      accessToken: session.accessToken,
      refreshToken: session.refreshToken,
      requireResetPassword,
      requireMfaEnrollment: session.pendingMfaEnrollment,
      user: toUser(user),
    });
  };

  return registration(AuthService, {
    ...ssoHandlers(deps),
    ...emailAuthHandlers(deps),
    async login(req, context) {
      const profile = await profileOf();
      const audit = auditScope(context);
      const client = requestFacts(context.values);
      let result: LoginResult;
      try {
        if (req.mfaTempToken) result = { kind: "session", ...(await secondFactorLogin(deps.sideDb, audit, deps.secrets, profile, client, req)) };
        else if (req.emailCode) result = await emailCodeLogin(deps.sideDb, audit, profile, client, req);
        else result = await passwordLogin(deps.sideDb, audit, profile, client, req);
      } catch (error) {
        deps.metrics.authLogins.inc({ status: refusalStatus(audit) });
        throw error;
      }
      if (result.kind === "second factor") {
        deps.metrics.authLogins.inc({ status: "mfa_required" });
        return create(LoginResponseSchema, { mfaTempToken: result.mfaTempToken });
      }
      deps.metrics.authLogins.inc({ status: "success" });
      return reply(context, profile, req.web, result.session, result.user, result.requireResetPassword);
    },
    async refresh(req, context) {
      const token = req.refreshToken || cookieValue(context.requestHeader.get("cookie"), REFRESH_COOKIE);
      if (!token) throw new ConnectError("send the refresh token in the body or the refresh-token cookie", Code.Unauthenticated);
      const profile = await profileOf();
      const session = await refreshSession(deps.db, token, sessionPolicyOf(profile), requestFacts(context.values));
      const user = await findUserById(deps.db, session.principalId);
      if (!user) throw new ConnectError("the refresh token is invalid, expired or revoked", Code.Unauthenticated);
      return reply(context, profile, req.web, session, user, passwordChangeDue(user, profile.passwordRestriction.passwordRotationMs));
    },
    async logout(_req, context) {
      const principal = context.values.get(kPrincipal);
      if (principal?.sessionFamilyId) await endSession(auditScope(context).tx, principal.sessionFamilyId);
      clearSessionCookies(context, (await profileOf()).externalUrl);
      return {};
    },
  });
}
