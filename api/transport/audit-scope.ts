// Hands an audited RPC's handler its CallAudit: the call's transaction and
// the audit facts only the handler knows. A streamed call (an export) holds
// no transaction; its handler states its facts in a StreamAudit instead.
import { createContextKey, type HandlerContext } from "@connectrpc/connect";
import type { AuditFacts, CallAudit } from "../../shared/governance/index.ts";

export const kAudit = createContextKey<CallAudit | undefined>(undefined, { description: "audit facts of the call" });
export const kStreamAudit = createContextKey<AuditFacts | undefined>(undefined, { description: "audit facts of the streamed call" });

/** The CallAudit of an audited RPC; asking from any other RPC is a definition error. */
export function auditScope(context: HandlerContext): CallAudit {
  const scope = context.values.get(kAudit);
  if (!scope) throw new Error(`${context.service.typeName}.${context.method.name} declares no audit action; it has no call transaction`);
  return scope;
}

/** The audit facts of an audited server-streaming RPC, recorded when its stream ends. */
export function streamAuditScope(context: HandlerContext): AuditFacts {
  const scope = context.values.get(kStreamAudit);
  if (!scope) throw new Error(`${context.service.typeName}.${context.method.name} is not an audited server-streaming call`);
  return scope;
}
