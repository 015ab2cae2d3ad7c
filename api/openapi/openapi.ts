// The OpenAPI 3.0 document of the REST API, built from the proto
// descriptors of the REST bindings and served at GET /openapi.json.
// Only REST routes appear; Connect, gRPC and ops routes are hidden.
import swagger from "@fastify/swagger";
import type { FastifyInstance, FastifySchema, RouteOptions } from "fastify";
import { version } from "../../shared/platform/index.ts";
import type { RestBinding } from "../transport/rest/bindings.ts";
import type { RestRouteConfig } from "../transport/rest/routes.ts";
import { errorComponentSchemas } from "./error-schema.ts";
import { operationSchemas } from "./operation.ts";
import { buildComponentSchemas, type JsonSchema } from "./schemas.ts";

export const OPENAPI_TITLE = "Change-audit platform API";

/** Registers @fastify/swagger; call before the REST routes are registered. */
export async function registerOpenApi(app: FastifyInstance, bindings: readonly RestBinding[]): Promise<void> {
  const operations = operationSchemas(bindings);
  // Built up front: the plugin copies its options when it is registered.
  const schemas = componentSchemas(bindings);
  await app.register(swagger, {
    mode: "dynamic",
    openapi: {
      openapi: "3.0.3",
      info: { title: OPENAPI_TITLE, version },
      components: { schemas },
    },
    transform: ({ schema, url, route }) => ({ schema: documentedSchema(operations, schema, route), url }),
  });
  app.get("/openapi.json", { schema: { hide: true } }, async () => app.swagger());
}

/** The messages and enums of every binding, and the error shape. */
export function componentSchemas(bindings: readonly RestBinding[]): Record<string, JsonSchema> {
  const messages = bindings.flatMap((binding) => [binding.method.input, binding.method.output]);
  return { ...buildComponentSchemas(messages), ...errorComponentSchemas() };
}

/** A REST binding's operation; every other route is hidden. */
function documentedSchema(operations: ReadonlyMap<RestBinding, FastifySchema>, schema: FastifySchema | undefined, route: RouteOptions): FastifySchema {
  const binding = (route.config as Partial<RestRouteConfig> | undefined)?.binding;
  const operation = binding && operations.get(binding);
  return operation ?? { ...schema, hide: true };
}
