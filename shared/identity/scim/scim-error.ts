// SCIM's own refusals (RFC 7644 §3.12): a domain error that also names the
// SCIM error type (`scimType`) the answer carries. Other domain errors reach
// a directory with the type their code implies (api/scim/scim-reply.ts).
import { DomainError, type ErrorCode } from "../../platform/index.ts";

export type ScimType = "invalidFilter" | "invalidPath" | "invalidSyntax" | "invalidValue" | "mutability" | "noTarget" | "uniqueness";

export class ScimError extends DomainError {
  override name = "ScimError";
  readonly scimType: ScimType;

  constructor(code: ErrorCode, scimType: ScimType, message: string) {
    super(code, message);
    this.scimType = scimType;
  }
}

const refusal =
  (scimType: ScimType, code: ErrorCode = "invalid_argument") =>
  (message: string): ScimError =>
    new ScimError(code, scimType, message);

export const invalidFilter = refusal("invalidFilter");
export const invalidPath = refusal("invalidPath");
export const invalidSyntax = refusal("invalidSyntax");
export const invalidValue = refusal("invalidValue");
export const mutability = refusal("mutability");
export const noTarget = refusal("noTarget");
export const uniqueness = refusal("uniqueness", "already_exists");
