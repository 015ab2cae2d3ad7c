// What Fastify and Node's HTTP parser would answer by themselves, in the one
// error shape of contract §1 instead of theirs: a URL that is not valid
// percent-encoding or whose path segment is too long, a request the parser
// refuses (malformed, headers too large, too slow), and requests arriving
// while the server closes.
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { Code, ConnectError } from "@connectrpc/connect";
import { errorToJson } from "@connectrpc/connect/protocol-connect";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { quoted } from "../../shared/platform/index.ts";
import { sendError, sendFastifyError } from "./error-reply.ts";

/**
 * The longest path segment routed, in characters as sent (Fastify's default
 * is 100, shorter than a login id); a longer value is refused here, one
 * within it by the input check, which names its field.
 */
const MAX_PATH_SEGMENT = 8192;

/** Fastify's options for its own refusals. */
export const frameworkErrorOptions = {
  routerOptions: { maxParamLength: MAX_PATH_SEGMENT },
  frameworkErrors: sendFrameworkError,
  clientErrorHandler: sendClientError,
  return503OnClosing: false, // refuseWhileClosing answers instead
};

/** Once the server begins to close, a request still arriving on an open connection answers unavailable. */
export function refuseWhileClosing(app: FastifyInstance): void {
  let closing = false;
  app.addHook("preClose", async () => {
    closing = true;
  });
  app.addHook("onRequest", (req, reply, done) => {
    if (!closing) return done();
    if (req.raw.httpVersionMajor < 2) reply.header("connection", "close");
    sendError(reply, new ConnectError("the server is shutting down; retry the request", Code.Unavailable)); // answered: no further hook runs
  });
}

function sendFrameworkError(error: FastifyError, req: FastifyRequest, reply: FastifyReply): FastifyReply {
  reply.header("x-correlation-id", req.id);
  const path = req.raw.url?.split("?")[0] ?? "";
  switch (error.code) {
    case "FST_ERR_BAD_URL":
      return sendError(reply, new ConnectError(`the URL path ${quoted(path)} is not valid percent-encoding`, Code.InvalidArgument));
    case "FST_ERR_MAX_PARAM_LENGTH":
      return sendError(reply, new ConnectError(`a segment of the URL path is longer than ${MAX_PATH_SEGMENT} characters`, Code.InvalidArgument));
    default:
      return sendFastifyError(error, req, reply);
  }
}

function sendClientError(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, refusal] = clientRefusal(error.code);
  const body = JSON.stringify(errorToJson(refusal, undefined));
  if (socket.writable) {
    const head = `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close`;
    socket.write(`${head}\r\n\r\n${body}`);
  }
  socket.destroy(error);
}

function clientRefusal(code: string | undefined): [number, ConnectError] {
  if (code === "HPE_HEADER_OVERFLOW") return [431, new ConnectError("the request headers are larger than the server accepts", Code.ResourceExhausted)];
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") return [408, new ConnectError("the request did not arrive in time", Code.DeadlineExceeded)];
  return [400, new ConnectError("the request is not valid HTTP", Code.InvalidArgument)];
}
