// Access checks after the audit hook, so that a refused call leaves a record
// (contract §8.2): a restricted principal may call only what its restriction
// allows (§1.3), then the RPC's `permission` option is checked (§0.2).
import { Code, ConnectError, type Interceptor, type StreamRequest, type UnaryRequest } from "@connectrpc/connect";
import { type AccessDecision, hiddenScope, permissionRequired, type Restriction } from "../../../shared/identity/index.ts";
import type { Tx } from "../../../shared/platform/index.ts";
import { kAudit, kAuditAtEnd } from "../audit-scope.ts";
import { methodOptions } from "../method-options.ts";
import { requestResource } from "../request-resource.ts";
import { isServerStream, readServerStreamRequest } from "../stream-request.ts";
import { kPrincipal, type Principal } from "./authn.ts";

/**
 * Answers whether the principal holds the permission for the resource the
 * request names, and at which scope that was decided.
 */
export type Authorize = (
  principal: Principal,
  permission: string,
  resourceName: string,
  /** The call's transaction when it has one: the check reads through it. */
  tx: Tx | undefined,
) => Promise<AccessDecision & { resource: string }>;

const RESTRICTED: Record<Restriction, string> = {
  password_change: "password change required: change your password with UpdateUser first",
  mfa_enrollment: "second factor enrolment required: enrol a TOTP factor with UpdateUser first",
};

export function createAclInterceptor(authorize: Authorize): Interceptor {
  return (next) => async (req) => {
    const { access, allowWithPendingReset } = methodOptions(req.method);
    const principal = req.contextValues.get(kPrincipal);
    const restriction = allowWithPendingReset ? undefined : principal?.restriction;
    if (restriction) throw new ConnectError(RESTRICTED[restriction], Code.PermissionDenied);
    if (access.kind !== "iam") return next(req);
    if (!principal) throw new ConnectError("sign in first: no credential was sent", Code.Unauthenticated);
    const { resourceName, call } = await withResourceName(req);
    const audit = req.contextValues.get(kAudit);
    const decision = await authorize(principal, access.permission, resourceName, audit?.tx);
    // A request that names no resource (workspace calls) is recorded at the scope checked.
    const facts = audit ?? req.contextValues.get(kAuditAtEnd);
    if (facts && !resourceName) facts.resource ??= decision.resource;
    if (decision.hidden) throw hiddenScope(decision.resource);
    if (!decision.allowed) throw permissionRequired(access.permission, decision.resource);
    return next(call as never);
  };
}

/** The resource the request names; a server-streaming request is read ahead for it. */
async function withResourceName(req: UnaryRequest | StreamRequest): Promise<{ resourceName: string; call: UnaryRequest | StreamRequest }> {
  if (!req.stream) return { resourceName: requestResource(req.method.input, req.message), call: req };
  if (!isServerStream(req)) return { resourceName: "", call: req };
  const { message, req: call } = await readServerStreamRequest(req);
  return { resourceName: message ? requestResource(req.method.input, message) : "", call };
}
