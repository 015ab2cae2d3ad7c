// Writes errors in the one JSON shape of contract §1.1 — {code, message,
// details} — for REST calls and for every route Fastify itself refuses.
import { Code, ConnectError } from "@connectrpc/connect";
import { errorToJson } from "@connectrpc/connect/protocol-connect";
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { toConnectError } from "./connect-error.ts";
import { httpStatusOf } from "./http-status.ts";

export function sendError(reply: FastifyReply, error: ConnectError, status = httpStatusOf(error.code)): FastifyReply {
  error.metadata.forEach((value, key) => {
    if (key !== "content-type" && key !== "content-length") reply.header(key, value);
  });
  return reply.code(status).type("application/json").send(JSON.stringify(errorToJson(error, undefined)));
}

/** Fastify error handler: body parsing, size and content-type refusals, and anything unexpected. */
export function sendFastifyError(error: FastifyError, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const { connectError, status } = mapFastifyError(error, req);
  if (connectError.code === Code.Internal) req.log.error({ error }, "request failed");
  return sendError(reply, connectError, status);
}

export function sendNotFound(req: FastifyRequest, reply: FastifyReply): FastifyReply {
  const path = req.url.split("?")[0];
  return sendError(reply, new ConnectError(`no route for ${req.method} ${path}`, Code.NotFound));
}

function mapFastifyError(error: FastifyError, req: FastifyRequest): { connectError: ConnectError; status?: number } {
  switch (error.code) {
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return { connectError: new ConnectError("the request body is larger than the server accepts", Code.ResourceExhausted), status: 413 };
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE": {
      const type = req.headers["content-type"] ?? "";
      const message = `unsupported Content-Type "${type}"; send application/json`;
      return { connectError: new ConnectError(message, Code.InvalidArgument), status: 415 };
    }
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return { connectError: new ConnectError("the request body is empty; send a JSON object", Code.InvalidArgument) };
    case "FST_STATIC_FORBIDDEN_PATH": // a console file path with "..", "." or an empty segment
      return { connectError: new ConnectError(`no route for ${req.method} ${req.url.split("?")[0]}`, Code.NotFound) };
    case "FST_ERR_CTP_INVALID_JSON_BODY":
    case "FST_ERR_CTP_INVALID_CONTENT_LENGTH":
      return { connectError: new ConnectError(`malformed request body: ${error.message}`, Code.InvalidArgument) };
    default:
      if (error instanceof SyntaxError || error.statusCode === 400) {
        return { connectError: new ConnectError(`malformed request: ${error.message}`, Code.InvalidArgument) };
      }
      return { connectError: toConnectError(error, req.id).error };
  }
}
