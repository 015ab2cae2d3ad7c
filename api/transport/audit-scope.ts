// Hands an audited RPC's handler its CallAudit: the call's transaction and
// the audit facts only the handler knows. A call recorded at its end (a
// server stream, or one declaring audit_at_end) holds no transaction; its
// handler states its facts, and the writes that go with its record, in an
// AuditAtEnd instead.
import { createContextKey, type HandlerContext } from "@connectrpc/connect";
import type { AuditAtEnd, CallAudit } from "../../shared/governance/index.ts";

export const kAudit = createContextKey<CallAudit | undefined>(undefined, { description: "audit facts of the call" });
export const kAuditAtEnd = createContextKey<AuditAtEnd | undefined>(undefined, { description: "audit facts of the call recorded at its end" });

/** The CallAudit of an audited RPC; asking from any other RPC is a definition error. */
export function auditScope(context: HandlerContext): CallAudit {
  const scope = context.values.get(kAudit);
  if (!scope) throw new Error(`${context.service.typeName}.${context.method.name} declares no audit action; it has no call transaction`);
  return scope;
}

/** The audit facts of a call recorded at its end: an audited server stream, or a call declaring audit_at_end. */
export function auditAtEndScope(context: HandlerContext): AuditAtEnd {
  const scope = context.values.get(kAuditAtEnd);
  if (!scope) throw new Error(`${context.service.typeName}.${context.method.name} is not audited at its end (an audited server stream, or audit_at_end)`);
  return scope;
}
