// Authentication hook: finds the caller's credential and requires one for
// every RPC that does not declare allow_without_credential (contract §0.2, §1.3).
import { Code, ConnectError, createContextKey, type Interceptor } from "@connectrpc/connect";
import { requestFacts, type RequestFacts } from "../context.ts";
import { methodOptions } from "../method-options.ts";

export interface Principal {
  /** Resource name, e.g. users/alice. */
  name: string;
}

/** Resolves an access token to its principal; undefined for an unknown, expired or revoked token. */
export type Authenticate = (token: string, facts: RequestFacts) => Promise<Principal | undefined>;

export const kPrincipal = createContextKey<Principal | undefined>(undefined, { description: "authenticated principal" });

const BASIC_UNSUPPORTED = "HTTP basic authentication is not supported; sign in with POST /v1/auth/login";
const ACCESS_TOKEN_COOKIE = "access-token";

export function createAuthnInterceptor(authenticate: Authenticate): Interceptor {
  return (next) => async (req) => {
    const authorization = req.header.get("authorization") ?? "";
    if (/^basic\s/i.test(authorization)) throw unauthenticated(BASIC_UNSUPPORTED);
    const token = bearerToken(authorization) ?? cookie(req.header.get("cookie"), ACCESS_TOKEN_COOKIE);
    const principal = token ? await authenticate(token, requestFacts(req.contextValues)) : undefined;
    const { access } = methodOptions(req.method);
    if (!principal && access.kind !== "public") {
      throw unauthenticated(token ? "the access token is invalid, expired or revoked" : "sign in first: no credential was sent");
    }
    if (principal) req.contextValues.set(kPrincipal, principal);
    return next(req);
  };
}

function unauthenticated(message: string): ConnectError {
  return new ConnectError(message, Code.Unauthenticated, { "www-authenticate": "Bearer" });
}

function bearerToken(authorization: string): string | undefined {
  const match = /^bearer\s+(\S+)\s*$/i.exec(authorization);
  return match?.[1];
}

function cookie(header: string | null, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(";")) {
    const eq = part.indexOf("=");
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim()) || undefined;
  }
  return undefined;
}
