// Hands an audited RPC's handler its CallAudit: the call's transaction and
// the audit facts only the handler knows.
import { createContextKey, type HandlerContext } from "@connectrpc/connect";
import type { CallAudit } from "../../shared/audit/call-audit.ts";

export const kAudit = createContextKey<CallAudit | undefined>(undefined, { description: "audit facts of the call" });

/** The CallAudit of an audited RPC; asking from any other RPC is a definition error. */
export function auditScope(context: HandlerContext): CallAudit {
  const scope = context.values.get(kAudit);
  if (!scope) throw new Error(`${context.service.typeName}.${context.method.name} declares no audit action; it has no call transaction`);
  return scope;
}
