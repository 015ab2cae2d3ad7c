// Authentication hook: finds the caller's credential and requires one for
// every RPC that does not declare allow_without_credential (contract §0.2, §1.3).
// The session cookie counts for a call that changes state only with the
// CSRF header (§19.5, csrf.ts).
// A restricted principal (password change or second factor pending) is
// refused later, by the ACL hook, so that the audit hook records the refusal.
import { Code, ConnectError, createContextKey, type HandlerContext, type Interceptor, type StreamRequest, type UnaryRequest } from "@connectrpc/connect";
import type { Principal } from "../../../shared/identity/index.ts";
import { addLogFields } from "../../../shared/platform/index.ts";
import { requestFacts, type RequestFacts } from "../context.ts";
import { ACCESS_COOKIE, cookieValue } from "../cookies.ts";
import { type Access, methodOptions } from "../method-options.ts";
import { cookieMayAuthenticate, csrfRefusal } from "./csrf.ts";

export type { Principal };

/** Resolves an access token to its principal; undefined for an unknown, expired or revoked token. */
export type Authenticate = (token: string, facts: RequestFacts) => Promise<Principal | undefined>;

export const kPrincipal = createContextKey<Principal | undefined>(undefined, { description: "authenticated principal" });

const BASIC_UNSUPPORTED = "HTTP basic authentication is not supported; sign in with POST /v1/auth/login";

export function createAuthnInterceptor(authenticate: Authenticate): Interceptor {
  return (next) => async (req) => {
    const authorization = req.header.get("authorization") ?? "";
    if (/^basic\s/i.test(authorization)) throw unauthenticated(BASIC_UNSUPPORTED);
    const { access, allowWithPendingReset } = methodOptions(req.method);
    const token = bearerToken(authorization) ?? sessionCookie(req, access);
    const principal = token ? await authenticate(token, requestFacts(req.contextValues)) : undefined;
    if (!principal && access.kind !== "public") {
      throw unauthenticated(token ? "the access token is invalid, expired or revoked" : "sign in first: no credential was sent");
    }
    // A public call made with a restricted credential runs as an anonymous one:
    // the credential grants nothing until the password is changed or the
    // second factor enrolled.
    const restricted = principal?.restriction !== undefined && !allowWithPendingReset;
    if (principal && !(restricted && access.kind === "public")) {
      req.contextValues.set(kPrincipal, principal);
      addLogFields({ actor: principal.name }); // on the call's lines from here on, "rpc done" included (contract §15.5)
    }
    return next(req);
  };
}

/**
 * The access-token cookie, when it may authenticate the call (csrf.ts).
 * Without the CSRF header a call that changes state is refused, or runs
 * anonymous when it is public: the cookie then grants nothing.
 */
function sessionCookie(req: UnaryRequest | StreamRequest, access: Access): string | undefined {
  const cookie = cookieValue(req.header.get("cookie"), ACCESS_COOKIE);
  if (cookie === undefined || cookieMayAuthenticate(req.method, req.header)) return cookie;
  if (access.kind === "public") return undefined;
  throw csrfRefusal(req.method);
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
