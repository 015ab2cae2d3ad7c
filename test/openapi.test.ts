// The OpenAPI document: built from the proto descriptors of the REST
// bindings, valid OpenAPI 3.0, and limited to the REST routes.
import SwaggerParser from "@apidevtools/swagger-parser";
import { create, createFileRegistry, setExtension, type DescFile, type DescMessage, type DescService, type MessageInitShape } from "@bufbuild/protobuf";
import {
  FieldDescriptorProto_Label,
  FieldDescriptorProto_Type,
  FieldDescriptorProtoSchema,
  FieldMaskSchema,
  FieldOptionsSchema,
  FileDescriptorProtoSchema,
  MethodDescriptorProtoSchema,
  MethodOptionsSchema,
  TimestampSchema,
} from "@bufbuild/protobuf/wkt";
import Fastify, { type FastifyInstance } from "fastify";
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { registerOpenApi } from "../api/openapi/openapi.ts";
import { buildComponentSchemas, enumComponentSchema, fieldSchema, messageReference, type JsonSchema } from "../api/openapi/schemas.ts";
import { restBindings, type RestBinding } from "../api/transport/rest/bindings.ts";
import { file_google_api_annotations, http } from "../shared/gen/google/api/annotations_pb.js";
import { FieldBehavior, FieldBehaviorSchema, field_behavior, file_google_api_field_behavior } from "../shared/gen/google/api/field_behavior_pb.js";
import { HttpRuleSchema } from "../shared/gen/google/api/http_pb.js";
import { ActuatorInfoSchema, ActuatorService } from "../shared/gen/svc/v1/actuator_service_pb.js";
import { allow_without_credential } from "../shared/gen/svc/v1/annotation_pb.js";

interface Parameter {
  name: string;
  in: string;
  description?: string;
}
interface Operation {
  operationId?: string;
  tags?: string[];
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  responses: Record<string, { content?: Record<string, { schema: JsonSchema }> }>;
}
interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string };
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, { properties?: Record<string, JsonSchema> }> };
}

async function appWithOpenApi(bindings: readonly RestBinding[]): Promise<FastifyInstance> {
  const app = Fastify();
  await registerOpenApi(app, bindings);
  await app.register(async (rest) => {
    for (const binding of bindings) {
      rest.route({ method: binding.verb, url: binding.compiled.url, config: { binding }, handler: async () => ({}) });
    }
  });
  app.post("/svc.v1.ActuatorService/GetActuatorInfo", async () => ({}));
  app.get("/healthz", async () => ({ status: "ok" }));
  await app.ready();
  return app;
}

async function validDocument(services: DescService[]): Promise<OpenApiDocument> {
  const app = await appWithOpenApi(restBindings(services));
  try {
    const res = await app.inject({ method: "GET", url: "/openapi.json" });
    assert.equal(res.statusCode, 200);
    const doc: OpenApiDocument = res.json();
    await SwaggerParser.validate(structuredClone(doc) as never);
    return doc;
  } finally {
    await app.close();
  }
}

const jsonSchemaOf = (content: Record<string, { schema: JsonSchema }> | undefined) => content?.["application/json"]?.schema;

describe("GET /openapi.json", () => {
  it("is a valid OpenAPI 3.0 document of the REST routes only", async () => {
    const doc = await validDocument([ActuatorService]);
    assert.equal(doc.openapi, "3.0.3");
    assert.equal(doc.info.title, "Change-audit platform API");
    assert.deepEqual(Object.keys(doc.paths), ["/v1/actuator/info"]);
    assert.ok(!Object.keys(doc.paths).some((path) => path.includes("/svc.v1.")));
  });

  it("describes GetActuatorInfo from its descriptors", async () => {
    const doc = await validDocument([ActuatorService]);
    const operation = doc.paths["/v1/actuator/info"]?.["get"];
    assert.ok(operation);
    assert.equal(operation.operationId, "ActuatorService_GetActuatorInfo");
    assert.deepEqual(operation.tags, ["ActuatorService"]);
    assert.deepEqual(jsonSchemaOf(operation.responses["200"]?.content), { $ref: "#/components/schemas/svc.v1.ActuatorInfo" });
    assert.deepEqual(jsonSchemaOf(operation.responses["default"]?.content), { $ref: "#/components/schemas/connect.Error" });
    const info = doc.components.schemas["svc.v1.ActuatorInfo"]?.properties;
    assert.ok(info);
    assert.deepEqual(info["version"], { type: "string", readOnly: true });
    assert.equal(info["startTime"]?.["type"], "string");
    assert.equal(info["startTime"]?.["format"], "date-time");
    assert.equal(info["startTime"]?.["readOnly"], true);
    assert.ok(doc.components.schemas["connect.Error"]?.properties?.["code"]);
  });

  it("describes path variables, custom verbs, query parameters and bodies", async () => {
    const doc = await validDocument([sampleFile().services[0]!]);
    const byName = (operation: Operation | undefined) => new Map(operation?.parameters?.map((p) => [`${p.in}:${p.name}`, p.description]));
    const get = doc.paths["/v1/workspaces/{p0}/samples/{p1}"]?.["get"];
    assert.equal(get?.operationId, "SampleService_GetSample");
    assert.deepEqual(byName(get), new Map<string, string | undefined>([
      ["query:view", undefined],
      ["query:filter.name", undefined],
      ["query:readMask", "Comma-separated field paths."],
      ["query:pageSize", undefined],
      ["path:p0", "name = workspaces/{p0}/samples/{p1}"],
      ["path:p1", "name = workspaces/{p0}/samples/{p1}"],
    ]));
    const additional = doc.paths["/v1/samples/{p0}"]?.["get"];
    assert.equal(additional?.operationId, "SampleService_GetSample_2");
    assert.equal(byName(additional).get("path:p0"), "name");
    const update = doc.paths["/v1/workspaces/{p0}/samples/{p1}"]?.["patch"];
    assert.deepEqual([...byName(update).keys()], ["query:updateMask", "path:p0", "path:p1"]);
    assert.deepEqual(jsonSchemaOf(update?.requestBody?.content), { $ref: "#/components/schemas/test.v1.Sample" });
    const cancel = doc.paths["/v1/workspaces/{p0}/samples/{p1}:cancel"]?.["post"];
    assert.deepEqual([...byName(cancel).keys()], ["path:p0", "path:p1"]);
    assert.deepEqual(jsonSchemaOf(cancel?.requestBody?.content), { $ref: "#/components/schemas/test.v1.GetSampleRequest" });
  });
});

describe("proto3 JSON schemas", () => {
  it("inlines well-known types", () => {
    assert.equal(messageReference(TimestampSchema)["format"], "date-time");
    assert.equal(messageReference(FieldMaskSchema)["type"], "string");
    assert.deepEqual(fieldSchema(ActuatorInfoSchema.field["startTime"]!), { type: "string", format: "date-time", example: "2024-01-15T10:00:00Z", readOnly: true });
  });

  it("maps an enum to the names of its values", () => {
    const schema = enumComponentSchema(FieldBehaviorSchema);
    assert.equal(schema["type"], "string");
    assert.ok((schema["enum"] as string[]).includes("OUTPUT_ONLY"));
  });

  it("maps scalars, lists, maps, enums and nested messages", () => {
    const components = buildComponentSchemas([sampleMessage()]);
    assert.deepEqual(Object.keys(components), ["test.v1.Sample", "test.v1.Sample.Kind", "test.v1.Sample.Part"]);
    assert.deepEqual(components["test.v1.Sample"]?.["properties"], {
      name: { type: "string" },
      count: { type: "string", format: "int64" },
      size: { type: "integer", format: "int32" },
      ratio: { type: "number", format: "double" },
      blob: { type: "string", format: "byte" },
      kind: { $ref: "#/components/schemas/test.v1.Sample.Kind" },
      parts: { type: "array", items: { $ref: "#/components/schemas/test.v1.Sample.Part" } },
      labels: { type: "object", additionalProperties: { type: "string" } },
      mask: { type: "string", description: "Comma-separated field paths.", example: "title,description" },
      primary: { allOf: [{ $ref: "#/components/schemas/test.v1.Sample.Part" }], readOnly: true },
    });
    assert.deepEqual(components["test.v1.Sample.Kind"], { type: "string", enum: ["KIND_UNSPECIFIED", "KIND_A"] });
  });
});

function sampleMessage(): DescMessage {
  const message = sampleFile().messages.find((m) => m.name === "Sample");
  assert.ok(message);
  return message;
}

/** test/v1/sample.proto, built as a descriptor: every kind of field, and a service with REST bindings. */
function sampleFile(): DescFile {
  const { INT64, INT32, DOUBLE, BYTES, ENUM, MESSAGE, STRING } = FieldDescriptorProto_Type;
  const { REPEATED } = FieldDescriptorProto_Label;
  const file = create(FileDescriptorProtoSchema, {
    name: "test/v1/sample.proto",
    package: "test.v1",
    syntax: "proto3",
    dependency: ["google/protobuf/field_mask.proto", "google/api/annotations.proto", "google/api/field_behavior.proto"],
    messageType: [
      {
        name: "Sample",
        field: [
          field("name", 1, STRING),
          field("count", 2, INT64),
          field("size", 3, INT32),
          field("ratio", 4, DOUBLE),
          field("blob", 5, BYTES),
          field("kind", 6, ENUM, { typeName: ".test.v1.Sample.Kind" }),
          field("parts", 7, MESSAGE, { typeName: ".test.v1.Sample.Part", label: REPEATED }),
          field("labels", 8, MESSAGE, { typeName: ".test.v1.Sample.LabelsEntry", label: REPEATED }),
          field("mask", 9, MESSAGE, { typeName: ".google.protobuf.FieldMask" }),
          field("primary", 10, MESSAGE, { typeName: ".test.v1.Sample.Part", options: outputOnly() }),
        ],
        nestedType: [
          { name: "Part", field: [field("name", 1, STRING)] },
          { name: "LabelsEntry", field: [field("key", 1, STRING), field("value", 2, STRING)], options: { mapEntry: true } },
        ],
        enumType: [{ name: "Kind", value: [{ name: "KIND_UNSPECIFIED", number: 0 }, { name: "KIND_A", number: 1 }] }],
      },
      {
        name: "GetSampleRequest",
        field: [
          field("name", 1, STRING),
          field("view", 2, ENUM, { typeName: ".test.v1.Sample.Kind" }),
          field("filter", 3, MESSAGE, { typeName: ".test.v1.Sample.Part" }),
          field("read_mask", 4, MESSAGE, { typeName: ".google.protobuf.FieldMask" }),
          field("page_size", 5, INT32),
          field("etag", 6, STRING, { options: outputOnly() }),
        ],
      },
      {
        name: "UpdateSampleRequest",
        field: [field("sample", 1, MESSAGE, { typeName: ".test.v1.Sample" }), field("update_mask", 2, MESSAGE, { typeName: ".google.protobuf.FieldMask" })],
      },
    ],
    service: [
      {
        name: "SampleService",
        method: [
          rpc("GetSample", "GetSampleRequest", { pattern: { case: "get", value: "/v1/{name=workspaces/*/samples/*}" }, additionalBindings: [{ pattern: { case: "get", value: "/v1/samples/{name}" } }] }),
          rpc("UpdateSample", "UpdateSampleRequest", { pattern: { case: "patch", value: "/v1/{sample.name=workspaces/*/samples/*}" }, body: "sample" }),
          rpc("CancelSample", "GetSampleRequest", { pattern: { case: "post", value: "/v1/{name=workspaces/*/samples/*}:cancel" }, body: "*" }),
        ],
      },
    ],
  });
  const imports = new Map([
    ["google/protobuf/field_mask.proto", FieldMaskSchema.file],
    ["google/api/annotations.proto", file_google_api_annotations],
    ["google/api/field_behavior.proto", file_google_api_field_behavior],
  ]);
  const registry = createFileRegistry(file, (name) => imports.get(name));
  const sample = registry.getFile("test/v1/sample.proto");
  assert.ok(sample);
  return sample;
}

type FieldInit = MessageInitShape<typeof FieldDescriptorProtoSchema>;

function field(name: string, number: number, type: FieldDescriptorProto_Type, extra: Pick<FieldInit, "typeName" | "label" | "options"> = {}): FieldInit {
  const jsonName = name.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
  return { name, jsonName, number, type, label: FieldDescriptorProto_Label.OPTIONAL, ...extra };
}

function outputOnly() {
  const options = create(FieldOptionsSchema);
  setExtension(options, field_behavior, [FieldBehavior.OUTPUT_ONLY]);
  return options;
}

function rpc(name: string, input: string, rule: MessageInitShape<typeof HttpRuleSchema>): MessageInitShape<typeof MethodDescriptorProtoSchema> {
  const options = create(MethodOptionsSchema);
  setExtension(options, http, create(HttpRuleSchema, rule));
  setExtension(options, allow_without_credential, true); // every RPC declares its access (method-options.ts)
  return { name, inputType: `.test.v1.${input}`, outputType: ".test.v1.Sample", options };
}
