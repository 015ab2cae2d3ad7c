// Answers of the SCIM endpoints (RFC 7644 §3.1, §3.12): application/scim+json
// always, errors as SCIM Error messages with the HTTP status as a string
// and, where one applies, a scimType. Domain errors keep their status of
// contract §1.2 (failed_precondition, e.g. an address outside the
// workspace's domains, is a 400); unexpected ones are logged and answered
// 500 with the correlation id, never their cause.
import { Code } from "@connectrpc/connect";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { type JsonObject, SCIM_SCHEMA, ScimError, type ScimType } from "../../shared/identity/index.ts";
import { toConnectError } from "../transport/connect-error.ts";
import { httpStatusOf } from "../transport/http-status.ts";

export const SCIM_CONTENT_TYPE = "application/scim+json; charset=utf-8";

/** The scimType a refusal carries when its error does not name one. */
const TYPE_OF_CODE: Partial<Record<Code, ScimType>> = {
  [Code.InvalidArgument]: "invalidValue",
  [Code.FailedPrecondition]: "invalidValue",
  [Code.OutOfRange]: "invalidValue",
  [Code.AlreadyExists]: "uniqueness",
};

export function sendScim(reply: FastifyReply, status: number, body: JsonObject): FastifyReply {
  return reply.code(status).type(SCIM_CONTENT_TYPE).send(JSON.stringify(body));
}

export function sendScimError(reply: FastifyReply, status: number, detail: string, scimType?: ScimType): FastifyReply {
  const body: JsonObject = { schemas: [SCIM_SCHEMA.error], status: String(status), ...(scimType ? { scimType } : {}), detail };
  return sendScim(reply, status, body);
}

/** Anything a SCIM handler throws, as the SCIM error a directory reads. */
export function sendScimFailure(req: FastifyRequest, reply: FastifyReply, thrown: unknown): FastifyReply {
  const { error, unexpected } = toConnectError(thrown, req.id);
  if (unexpected) req.log.error({ error: thrown }, "directory sync request failed");
  error.metadata.forEach((value, key) => {
    if (key !== "content-type" && key !== "content-length") reply.header(key, value);
  });
  const scimType = thrown instanceof ScimError ? thrown.scimType : TYPE_OF_CODE[error.code];
  return sendScimError(reply, httpStatusOf(error.code), error.rawMessage, scimType);
}

/** Fastify's own refusals (body size, content type, malformed JSON) in the SCIM shape. */
export function sendScimFastifyError(error: FastifyError, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return sendScimError(reply, 413, "the request body is larger than the server accepts");
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return sendScimError(reply, 415, `unsupported Content-Type "${req.headers["content-type"] ?? ""}"; send application/scim+json or application/json`);
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return sendScimError(reply, 400, "the request body is empty; send a JSON object", "invalidSyntax");
    default:
      if (error instanceof SyntaxError || error.statusCode === 400) return sendScimError(reply, 400, `malformed request body: ${error.message}`, "invalidSyntax");
      return sendScimFailure(req, reply, error);
  }
}
