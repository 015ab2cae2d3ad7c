// REST+JSON transcoded from the google.api.http annotations, registered at
// start-up in their own encapsulated context (strict JSON parsing only).
import { toJson, type JsonValue, type Message } from "@bufbuild/protobuf";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { toConnectError } from "../connect-error.ts";
import { abortWhenClientLeaves, requestContextValues, requestHeaders } from "../context.ts";
import { sendError, sendFastifyError } from "../error-reply.ts";
import type { UnaryInvoker } from "../invoke-unary.ts";
import type { RestBinding } from "./bindings.ts";
import { variableValues } from "./path-template.ts";
import { buildRequestMessage } from "./request-message.ts";

export interface RestRouteConfig {
  binding: RestBinding;
}

export async function registerRestRoutes(app: FastifyInstance, bindings: readonly RestBinding[], invoke: UnaryInvoker): Promise<void> {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, app.getDefaultJsonParser("error", "error"));
  app.setErrorHandler(sendFastifyError);
  for (const binding of bindings) {
    app.route({
      method: binding.verb,
      url: binding.compiled.url,
      config: { binding } satisfies RestRouteConfig,
      handler: (req, reply) => handle(binding, invoke, req, reply),
    });
  }
}

async function handle(binding: RestBinding, invoke: UnaryInvoker, req: FastifyRequest, reply: FastifyReply): Promise<FastifyReply> {
  const contextValues = requestContextValues(req, "rest");
  const { controller, release } = abortWhenClientLeaves(reply);
  try {
    const message = buildRequestMessage(binding.method.input, {
      bodyField: binding.bodyField,
      body: req.body,
      query: req.query as Record<string, string | string[] | undefined>,
      pathValues: variableValues(binding.compiled, req.params as Record<string, string>),
    });
    const res = await invoke({
      method: binding.method,
      message,
      requestMethod: req.method,
      url: req.url,
      header: requestHeaders(req),
      contextValues,
      signal: controller.signal,
      protocolName: "rest",
    });
    res.header.forEach((value, key) => reply.header(key, value));
    return reply.type("application/json").send(JSON.stringify(responseJson(binding, res.message)));
  } catch (thrown) {
    return sendError(reply, toConnectError(thrown, req.id).error);
  } finally {
    release();
  }
}

function responseJson(binding: RestBinding, message: Message): JsonValue {
  const json = toJson(binding.method.output, message as never) as Record<string, JsonValue>;
  if (!binding.responseBody) return json;
  const field = binding.method.output.fields.find((f) => f.name === binding.responseBody);
  return json[field?.jsonName ?? binding.responseBody] ?? null;
}
