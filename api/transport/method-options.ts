// The access and audit options each RPC declares in the proto (contract §0.2),
// read once per method: getOption decodes option bytes on every call.
import type { DescMethod } from "@bufbuild/protobuf";
import { getOption, hasOption } from "@bufbuild/protobuf";
import { MethodOptions_IdempotencyLevel } from "@bufbuild/protobuf/wkt";
import { http } from "../../shared/gen/google/api/annotations_pb.js";
import { accept_form_body, allow_with_pending_reset, allow_without_credential, audit, audit_at_end, auth, AuthMethod, permission } from "../../shared/gen/svc/v1/annotation_pb.js";

export type Access =
  | { kind: "public" }
  | { kind: "authenticated" }
  | { kind: "custom" }
  | { kind: "iam"; permission: string };

export interface MethodOptions {
  access: Access;
  /** Audit action, or undefined when the call is not audited. */
  auditAction: string | undefined;
  /** The call holds no store transaction; its record is written when it ends (audit_at_end). */
  auditAtEnd: boolean;
  /** Open to a principal that must first change its password (contract §1.3). */
  allowWithPendingReset: boolean;
  /** REST also accepts a form-encoded body (a browser's form post). */
  acceptFormBody: boolean;
  /**
   * The call only reads: its REST binding is a GET, or it declares
   * idempotency_level NO_SIDE_EFFECTS. The session cookie authenticates
   * anything else only with the CSRF header (contract §19.5).
   */
  read: boolean;
}

const cache = new WeakMap<DescMethod, MethodOptions>();

export class MethodOptionsError extends Error {
  override name = "MethodOptionsError";
}

export function methodOptions(method: DescMethod): MethodOptions {
  let options = cache.get(method);
  if (!options) {
    options = {
      access: accessOf(method),
      auditAction: getOption(method, audit) || undefined,
      auditAtEnd: auditAtEndOf(method),
      allowWithPendingReset: getOption(method, allow_with_pending_reset),
      acceptFormBody: getOption(method, accept_form_body),
      read: isRead(method),
    };
    cache.set(method, options);
  }
  return options;
}

/** Exactly one access option must be declared; anything else is a definition error. */
export function declaredAccessOptions(method: DescMethod): string[] {
  const declared: string[] = [];
  if (hasOption(method, permission) && getOption(method, permission) !== "") declared.push("permission");
  if (getOption(method, allow_without_credential)) declared.push("allow_without_credential");
  const authMethod = getOption(method, auth);
  if (authMethod === AuthMethod.AUTHENTICATED) declared.push("auth: AUTHENTICATED");
  if (authMethod === AuthMethod.CUSTOM) declared.push("auth: CUSTOM");
  return declared;
}

function accessOf(method: DescMethod): Access {
  const declared = declaredAccessOptions(method);
  if (declared.length !== 1) {
    throw new MethodOptionsError(
      `${method.parent.typeName}.${method.name} must declare exactly one access option ` +
        `(permission, allow_without_credential, auth AUTHENTICATED or auth CUSTOM); it declares ${declared.length ? declared.join(", ") : "none"}`,
    );
  }
  const authMethod = getOption(method, auth);
  if (getOption(method, allow_without_credential)) return { kind: "public" };
  if (authMethod === AuthMethod.AUTHENTICATED) return { kind: "authenticated" };
  if (authMethod === AuthMethod.CUSTOM) return { kind: "custom" };
  return { kind: "iam", permission: getOption(method, permission) };
}

function auditAtEndOf(method: DescMethod): boolean {
  const atEnd = getOption(method, audit_at_end);
  if (atEnd && !getOption(method, audit)) throw new MethodOptionsError(`${method.parent.typeName}.${method.name} declares audit_at_end without an audit action`);
  return atEnd;
}

function isRead(method: DescMethod): boolean {
  if (method.idempotency === MethodOptions_IdempotencyLevel.NO_SIDE_EFFECTS) return true;
  return hasOption(method, http) && getOption(method, http).pattern.case === "get";
}
