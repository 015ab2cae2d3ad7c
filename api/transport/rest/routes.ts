// REST+JSON transcoded from the google.api.http annotations, registered at
// start-up in their own encapsulated context (strict JSON parsing only).
// Unary methods answer JSON; server-streaming methods are downloads whose
// body is the file itself (download.ts) or, when their messages are not
// files, newline-delimited JSON (ndjson-stream.ts). All run the one
// interceptor chain. A stream's call signal also aborts at shutdown, so that
// streams that never end by themselves (watches) let the server close.
// A unary reply whose handler set a `location` header is a browser redirect:
// 303 See Other to it, with no body (the message is for RPC clients). Methods
// declaring accept_form_body also take form-encoded bodies (form-body.ts).
// A browser's single sign-on refused is sent to the console's sign-in page
// with the message (console/sso-refusal-page.ts).
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { ssoRefusalPage } from "../../console/sso-refusal-page.ts";
import { toConnectError } from "../connect-error.ts";
import { abortWhenClientLeaves, requestContextValues, requestHeaders } from "../context.ts";
import { sendError, sendFastifyError } from "../error-reply.ts";
import { encodedOnce } from "../frozen-replies.ts";
import { decodedRequest } from "../interceptors/audit-undecodable.ts";
import type { ServerStreamInvoker } from "../invoke-server-stream.ts";
import type { UnaryCall, UnaryInvoker } from "../invoke-unary.ts";
import { responseText, type RestBinding } from "./bindings.ts";
import { sendDownload, startDownload } from "./download.ts";
import { FormBody, formBodyRefusal, registerFormBodyParser } from "./form-body.ts";
import { variableValues } from "./path-template.ts";
import { sendNdjson, startNdjson } from "./ndjson-stream.ts";
import { buildRequestMessage } from "./request-message.ts";

export interface RestRouteConfig {
  binding: RestBinding;
}

export interface RestInvokers {
  unary: UnaryInvoker;
  serverStream: ServerStreamInvoker;
  /** Aborted when the server begins to shut down. */
  shutdownSignal: AbortSignal;
}

type CallFacts = Omit<UnaryCall, "method">;

export async function registerRestRoutes(app: FastifyInstance, bindings: readonly RestBinding[], invoke: RestInvokers): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, app.getDefaultJsonParser("error", "error"));
  registerFormBodyParser(app);
  app.setErrorHandler(sendFastifyError);
  for (const binding of bindings) {
    app.route({
      method: binding.verb,
      url: binding.compiled.url,
      config: { binding } satisfies RestRouteConfig,
      handler: (req, reply) => (binding.kind === "unary" ? handle(binding, invoke.unary, req, reply) : stream(binding, invoke, req, reply)),
    });
  }
}

async function handle(binding: RestBinding & { kind: "unary" }, invoke: UnaryInvoker, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const refusal = formBodyRefusal(binding.method, req.body);
  if (refusal) return sendError(reply, refusal, 415);
  const { controller, release } = abortWhenClientLeaves(reply);
  try {
    const res = await invoke({ ...callFacts(binding, req, controller.signal), method: binding.method });
    res.header.forEach((value, key) => reply.header(key, value));
    if (res.header.has("location")) return reply.code(303).send();
    return reply.type("application/json").send(encodedOnce(res.message, binding, () => responseText(binding, res.message)));
  } catch (thrown) {
    const { error } = toConnectError(thrown, req.id);
    const signInPage = ssoRefusalPage(binding.method, req, error);
    if (signInPage) return reply.code(303).header("location", signInPage).send();
    return sendError(reply, error);
  } finally {
    release();
  }
}

/** A server stream: a download (the file itself) or NDJSON lines; both wait for the first message. */
async function stream(
  binding: RestBinding & { kind: "download" | "ndjson" },
  invoke: RestInvokers,
  req: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const refusal = formBodyRefusal(binding.method, req.body);
  if (refusal) return sendError(reply, refusal, 415);
  const { signal, release } = streamSignal(reply, invoke.shutdownSignal);
  try {
    const res = await invoke.serverStream({ ...callFacts(binding, req, signal), method: binding.method });
    if (binding.kind === "download") {
      const file = await startDownload(res, reply.raw);
      file.body.once("close", release);
      return sendDownload(reply, file);
    }
    const lines = await startNdjson(binding, res, req.id);
    lines.body.once("close", release);
    return sendNdjson(reply, lines);
  } catch (thrown) {
    release();
    return sendError(reply, toConnectError(thrown, req.id).error);
  }
}

/** A streamed call's signal: the client went away, or the server is shutting down. */
function streamSignal(reply: FastifyReply, shutdownSignal: AbortSignal): { signal: AbortSignal; release: () => void } {
  const { controller, release } = abortWhenClientLeaves(reply);
  return { signal: AbortSignal.any([controller.signal, shutdownSignal]), release };
}

/** The in-process call of a REST request: its message, headers and context. */
function callFacts(binding: RestBinding, req: FastifyRequest, signal: AbortSignal): CallFacts {
  const query = req.query as Record<string, string | string[] | undefined>;
  const form = req.body instanceof FormBody ? req.body.fields : undefined;
  const contextValues = requestContextValues(req, "rest");
  const message = decodedRequest(binding.method, contextValues, () =>
    buildRequestMessage(binding.method.input, {
      // A form body's fields are read like query parameters.
      bodyField: form ? "" : binding.bodyField,
      body: form ? undefined : req.body,
      query: form ? { ...query, ...form } : query,
      pathValues: variableValues(binding.compiled, req.params as Record<string, string>),
    }),
  );
  return {
    message,
    requestMethod: req.method,
    url: req.url,
    header: requestHeaders(req),
    contextValues,
    signal,
    protocolName: "rest",
  };
}
