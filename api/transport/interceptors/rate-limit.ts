// Per-principal rate limit hook (contract §15.6): after authentication, every
// call made with a credential counts toward its principal's per-minute limit,
// whatever the API form, for every replica together (decision 0071). Calls
// without a credential are not counted here, and neither is the sign-in
// family, which has its own limit per client IP in the store (§4.5). A
// refusal writes nothing to the store.
import type { DescMethod } from "@bufbuild/protobuf";
import type { Interceptor } from "@connectrpc/connect";
import { SharedPrincipalRateLimiter } from "../../../shared/identity/index.ts";
import type { Db, Logger } from "../../../shared/platform/index.ts";
import { AuthService } from "../../../shared/gen/svc/v1/auth_service_pb.js";
import { kPrincipal } from "./authn.ts";

/**
 * The RPCs limited per client IP by LOGIN_RATE_LIMIT instead: every form of
 * sign-in (a browser may well send its session cookie to the SSO callbacks),
 * and the e-mail calls that count toward the same limit. StartSso and Refresh
 * are not under the per-IP limit, so a credential sent with them counts here.
 */
const LOGIN_FAMILY: ReadonlySet<DescMethod> = new Set([
  AuthService.method.login,
  AuthService.method.oAuthCallback,
  AuthService.method.samlAcs,
  AuthService.method.sendEmailCode,
  AuthService.method.requestPasswordReset,
  AuthService.method.resetPassword,
]);

export interface RateLimitDeps {
  /** Requests per minute per principal; 0 turns the limit off. */
  perMinute: number;
  /** The side pool, where the replicas' counts are reserved. */
  db: Db;
  logger: Logger;
}

export function createRateLimitInterceptor({ perMinute, db, logger }: RateLimitDeps): Interceptor {
  if (perMinute === 0) return (next) => next;
  const limiter = new SharedPrincipalRateLimiter({ db, limit: perMinute, logger });
  return (next) => async (req) => {
    const principal = req.contextValues.get(kPrincipal);
    if (principal && !LOGIN_FAMILY.has(req.method)) await limiter.take(principal.name);
    return next(req);
  };
}
