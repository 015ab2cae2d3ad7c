// The audit record of one call (contract §8.1), from the facts its handler
// stated and what the transport knows: caller, client, method, outcome,
// latency, and request and response as JSON with secrets redacted.
import type { DescMessage, DescMethod, DescService, Message } from "@bufbuild/protobuf";
import { Code, ConnectError, type ContextValues } from "@connectrpc/connect";
import { ANONYMOUS_ACTOR, type AuditEntry, type AuditFacts } from "../../../shared/governance/index.ts";
import { normalizeLoginId, userName } from "../../../shared/platform/index.ts";
import { toConnectError } from "../connect-error.ts";
import { requestFacts } from "../context.ts";
import { redactedJson } from "../redact.ts";
import { requestResource } from "../request-resource.ts";
import { kPrincipal } from "./authn.ts";

export interface AuditedCall {
  service: DescService;
  method: DescMethod & { input: DescMessage; output: DescMessage };
  contextValues: ContextValues;
}

/** How the call ended: its response message (unary calls), or its error. */
export type CallEnd = { response?: Message; error?: ConnectError };

export function auditEntry(facts: AuditFacts, call: AuditedCall, request: Message | undefined, end: CallEnd): AuditEntry {
  const context = requestFacts(call.contextValues);
  const { error } = end;
  return {
    actor: facts.actor ?? call.contextValues.get(kPrincipal)?.name ?? attemptedUser(request) ?? ANONYMOUS_ACTOR,
    action: facts.action,
    severity: facts.severity ?? (error?.code === Code.Internal ? "ERROR" : "INFO"),
    resource: facts.resource ?? (request ? requestResource(call.method.input, request) : ""),
    actorIp: context.clientIp,
    userAgent: context.userAgent,
    method: `/${call.service.typeName}/${call.method.name}`,
    statusCode: error ? codeName(error.code) : "ok",
    statusMessage: error?.rawMessage ?? "",
    latencyUs: (performance.now() - context.startedAt) * 1000,
    correlationId: context.correlationId,
    request: request ? redactedJson(call.method.input, request) : "",
    response: end.response ? redactedJson(call.method.output, end.response) : "",
    detail: facts.detail,
  };
}

/**
 * The user a call without credentials names itself as (a sign-in or a
 * sign-up refused before its handler ran): users/<login id as typed>, as the
 * handler records it (contract §8.1).
 */
function attemptedUser(request: Message | undefined): string | undefined {
  const loginId = (request as { loginId?: unknown } | undefined)?.loginId;
  return typeof loginId === "string" && loginId !== "" ? userName(normalizeLoginId(loginId) ?? loginId) : undefined;
}

export function connectErrorOf(thrown: unknown, call: AuditedCall): ConnectError {
  return toConnectError(thrown, requestFacts(call.contextValues).correlationId).error;
}

/** Connect's wire name of a code, e.g. permission_denied. */
function codeName(code: Code): string {
  return Code[code].replace(/(?<=[a-z])(?=[A-Z])/g, "_").toLowerCase();
}
