// The console's CSRF defence (contract §19.5, decision 0090): the session
// cookie authenticates a call that changes state only when the request
// carries `X-Svc-Csrf: 1`. A page of another site cannot add that header
// without a CORS preflight, which this server never grants; a bearer token
// is never sent by a browser on its own, so it needs no header.
import type { DescMethod } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { AuthService } from "../../../shared/gen/svc/v1/auth_service_pb.js";
import { methodOptions } from "../method-options.ts";

export const CSRF_HEADER = "x-svc-csrf";

/**
 * Sign-in, refresh and sign-out need no header: the SameSite=Strict cookies
 * keep them same-site, and their answers are unreadable cross-site.
 */
const EXEMPT: ReadonlySet<DescMethod> = new Set([AuthService.method.login, AuthService.method.refresh, AuthService.method.logout]);

/** Whether the session cookie may authenticate this call: a read, an exempt call, or the header sent. */
export function cookieMayAuthenticate(method: DescMethod, header: Headers): boolean {
  return methodOptions(method).read || EXEMPT.has(method) || header.get(CSRF_HEADER) === "1";
}

export function csrfRefusal(method: DescMethod): ConnectError {
  return new ConnectError(
    `${method.parent.typeName}.${method.name} changes state and the session cookie authenticates it only with the header ` +
      `"X-Svc-Csrf: 1" (the console sends it); API clients send Authorization: Bearer instead`,
    Code.PermissionDenied,
  );
}
