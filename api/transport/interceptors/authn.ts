// Authentication hook: finds the caller's credential and requires one for
// every RPC that does not declare allow_without_credential (contract §0.2, §1.3).
import { Code, ConnectError, createContextKey, type HandlerContext, type Interceptor } from "@connectrpc/connect";
import type { Principal, Restriction } from "../../../shared/auth/principal.ts";
import { requestFacts, type RequestFacts } from "../context.ts";
import { ACCESS_COOKIE, cookieValue } from "../cookies.ts";
import { methodOptions } from "../method-options.ts";

export type { Principal };

/** Resolves an access token to its principal; undefined for an unknown, expired or revoked token. */
export type Authenticate = (token: string, facts: RequestFacts) => Promise<Principal | undefined>;

export const kPrincipal = createContextKey<Principal | undefined>(undefined, { description: "authenticated principal" });

const BASIC_UNSUPPORTED = "HTTP basic authentication is not supported; sign in with POST /v1/auth/login";

const RESTRICTED: Record<Restriction, string> = {
  password_change: "password change required: change your password with UpdateUser first",
  mfa_enrollment: "second factor enrolment required: enrol a TOTP factor with UpdateUser first",
};

export function createAuthnInterceptor(authenticate: Authenticate): Interceptor {
  return (next) => async (req) => {
    const authorization = req.header.get("authorization") ?? "";
    if (/^basic\s/i.test(authorization)) throw unauthenticated(BASIC_UNSUPPORTED);
    const token = bearerToken(authorization) ?? cookieValue(req.header.get("cookie"), ACCESS_COOKIE);
    const principal = token ? await authenticate(token, requestFacts(req.contextValues)) : undefined;
    const { access, allowWithPendingReset } = methodOptions(req.method);
    if (!principal && access.kind !== "public") {
      throw unauthenticated(token ? "the access token is invalid, expired or revoked" : "sign in first: no credential was sent");
    }
    const restriction = allowWithPendingReset ? undefined : principal?.restriction;
    if (restriction && access.kind !== "public") throw new ConnectError(RESTRICTED[restriction], Code.PermissionDenied);
    // A public call made with a restricted credential runs as an anonymous one:
    // the credential grants nothing until the password is changed or the
    // second factor enrolled.
    if (principal && !restriction) req.contextValues.set(kPrincipal, principal);
    return next(req);
  };
}

/** The signed-in caller of an RPC that requires a credential. */
export function callerOf(context: HandlerContext): Principal {
  const principal = context.values.get(kPrincipal);
  if (!principal) throw new Error(`${context.method.name} requires a credential, which the interceptor chain checks`);
  return principal;
}

function unauthenticated(message: string): ConnectError {
  return new ConnectError(message, Code.Unauthenticated, { "www-authenticate": "Bearer" });
}

function bearerToken(authorization: string): string | undefined {
  const match = /^bearer\s+(\S+)\s*$/i.exec(authorization);
  return match?.[1];
}
