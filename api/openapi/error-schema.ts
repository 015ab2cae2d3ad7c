// The one JSON error shape of every API form (contract §1.1): the Connect
// error, {code, message, details}, as OpenAPI components.
import { Code } from "@connectrpc/connect";
import { codeToString } from "@connectrpc/connect/protocol-connect";
import { componentRef, type JsonSchema } from "./schemas.ts";

export const ERROR_SCHEMA_NAME = "connect.Error";
const ERROR_DETAIL_SCHEMA_NAME = "connect.ErrorDetail";

export function errorComponentSchemas(): Record<string, JsonSchema> {
  return {
    [ERROR_SCHEMA_NAME]: {
      type: "object",
      required: ["code"],
      properties: {
        code: { type: "string", enum: connectCodeNames(), description: "The Connect error code." },
        message: { type: "string", description: "A developer-facing description of the error." },
        details: { type: "array", items: componentRef(ERROR_DETAIL_SCHEMA_NAME) },
      },
    },
    [ERROR_DETAIL_SCHEMA_NAME]: {
      type: "object",
      properties: {
        type: { type: "string", description: "The detail's full protobuf type name, e.g. google.rpc.ErrorInfo." },
        value: { type: "string", format: "byte", description: "The detail message in protobuf binary, base64-encoded." },
        debug: { type: "object", additionalProperties: true, description: "The detail as JSON, when the server includes it." },
      },
    },
  };
}

function connectCodeNames(): string[] {
  return Object.values(Code)
    .filter((value): value is Code => typeof value === "number")
    .map((code) => codeToString(code));
}
