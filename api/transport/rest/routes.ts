// REST+JSON transcoded from the google.api.http annotations, registered at
// start-up in their own encapsulated context (strict JSON parsing only).
// Unary methods answer JSON; server-streaming methods are downloads whose
// body is the file itself (download.ts). Both run the one interceptor chain.
// A unary reply whose handler set a `location` header is a browser redirect:
// 303 See Other to it, with no body (the message is for RPC clients). Methods
// declaring accept_form_body also take form-encoded bodies (form-body.ts).
import { toJson, type JsonValue, type Message } from "@bufbuild/protobuf";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { toConnectError } from "../connect-error.ts";
import { abortWhenClientLeaves, requestContextValues, requestHeaders } from "../context.ts";
import { sendError, sendFastifyError } from "../error-reply.ts";
import type { ServerStreamInvoker } from "../invoke-server-stream.ts";
import type { UnaryCall, UnaryInvoker } from "../invoke-unary.ts";
import type { RestBinding } from "./bindings.ts";
import { sendDownload, startDownload } from "./download.ts";
import { FormBody, formBodyRefusal, registerFormBodyParser } from "./form-body.ts";
import { variableValues } from "./path-template.ts";
import { buildRequestMessage } from "./request-message.ts";

export interface RestRouteConfig {
  binding: RestBinding;
}

export interface RestInvokers {
  unary: UnaryInvoker;
  serverStream: ServerStreamInvoker;
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
      handler: (req, reply) => (binding.kind === "unary" ? handle(binding, invoke.unary, req, reply) : download(binding, invoke.serverStream, req, reply)),
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
    return reply.type("application/json").send(JSON.stringify(responseJson(binding, res.message)));
  } catch (thrown) {
    return sendError(reply, toConnectError(thrown, req.id).error);
  } finally {
    release();
  }
}

async function download(binding: RestBinding & { kind: "download" }, invoke: ServerStreamInvoker, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const refusal = formBodyRefusal(binding.method, req.body);
  if (refusal) return sendError(reply, refusal, 415);
  const { controller, release } = abortWhenClientLeaves(reply);
  try {
    const res = await invoke({ ...callFacts(binding, req, controller.signal), method: binding.method });
    const file = await startDownload(res);
    file.body.once("close", release);
    return sendDownload(reply, file);
  } catch (thrown) {
    release();
    return sendError(reply, toConnectError(thrown, req.id).error);
  }
}

/** The in-process call of a REST request: its message, headers and context. */
function callFacts(binding: RestBinding, req: FastifyRequest, signal: AbortSignal): CallFacts {
  const query = req.query as Record<string, string | string[] | undefined>;
  const form = req.body instanceof FormBody ? req.body.fields : undefined;
  const message = buildRequestMessage(binding.method.input, {
    // A form body's fields are read like query parameters.
    bodyField: form ? "" : binding.bodyField,
    body: form ? undefined : req.body,
    query: form ? { ...query, ...form } : query,
    pathValues: variableValues(binding.compiled, req.params as Record<string, string>),
  });
  return {
    message,
    requestMethod: req.method,
    url: req.url,
    header: requestHeaders(req),
    contextValues: requestContextValues(req, "rest"),
    signal,
    protocolName: "rest",
  };
}

function responseJson(binding: RestBinding, message: Message): JsonValue {
  const json = toJson(binding.method.output, message as never) as Record<string, JsonValue>;
  if (!binding.responseBody) return json;
  const field = binding.method.output.fields.find((f) => f.name === binding.responseBody);
  return json[field?.jsonName ?? binding.responseBody] ?? null;
}
