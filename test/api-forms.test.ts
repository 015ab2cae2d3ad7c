// The same RPC through every form on one port: REST, Connect JSON and binary
// (HTTP/1.1 and h2c), gRPC (connect's client and @grpc/grpc-js), gRPC-Web.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { fromBinary, toBinary, toJson } from "@bufbuild/protobuf";
import { createClient, type Transport } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport, createGrpcWebTransport } from "@connectrpc/connect-node";
import * as grpc from "@grpc/grpc-js";
import {
  ActuatorInfoSchema,
  ActuatorService,
  GetActuatorInfoRequestSchema,
  type ActuatorInfo,
} from "../shared/gen/svc/v1/actuator_service_pb.js";
import { version } from "../shared/platform/version.ts";
import { startTestApp, type TestApp } from "./helpers/app.ts";

describe("one RPC, every API form", () => {
  let app: TestApp;
  let expected: ActuatorInfo;
  before(async () => {
    app = await startTestApp();
    expected = await createClient(ActuatorService, connect(false, "1.1")).getActuatorInfo({});
  });
  after(() => app.close());

  const connect = (binary: boolean, httpVersion: "1.1" | "2"): Transport =>
    createConnectTransport({ baseUrl: app.baseUrl, httpVersion, useBinaryFormat: binary });

  it("answers GetActuatorInfo with the package version", () => {
    assert.equal(expected.version, version);
    assert.ok(expected.startTime);
    assert.equal(expected.workspaceTitle, "Workspace");
  });

  it("REST GET /v1/actuator/info gives the same record as JSON", async () => {
    const res = await fetch(`${app.baseUrl}/v1/actuator/info`);
    assert.equal(res.status, 200);
    assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
    assert.deepEqual(await res.json(), toJson(ActuatorInfoSchema, expected));
  });

  const transports: [string, () => Transport][] = [
    ["Connect JSON over HTTP/1.1", () => connect(false, "1.1")],
    ["Connect binary over HTTP/1.1", () => connect(true, "1.1")],
    ["Connect JSON over h2c", () => connect(false, "2")],
    ["Connect binary over h2c", () => connect(true, "2")],
    ["gRPC over h2c", () => createGrpcTransport({ baseUrl: app.baseUrl })],
    ["gRPC-Web over HTTP/1.1", () => createGrpcWebTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" })],
  ];
  for (const [name, transport] of transports) {
    it(`${name} gives the same record`, async () => {
      const info = await createClient(ActuatorService, transport()).getActuatorInfo({});
      assert.deepEqual(toJson(ActuatorInfoSchema, info), toJson(ActuatorInfoSchema, expected));
    });
  }

  it("@grpc/grpc-js, an independent gRPC client, gives the same record", async () => {
    const info = await grpcJsCall(app.port);
    assert.deepEqual(toJson(ActuatorInfoSchema, info), toJson(ActuatorInfoSchema, expected));
  });

  it("Connect GET works for a side-effect-free method", async () => {
    const res = await fetch(`${app.baseUrl}/svc.v1.ActuatorService/GetActuatorInfo?encoding=json&message=%7B%7D`);
    assert.equal(res.status, 200);
    assert.equal(((await res.json()) as { version: string }).version, version);
  });

  it("returns the correlation id it was given, and makes one otherwise", async () => {
    const given = await fetch(`${app.baseUrl}/v1/actuator/info`, { headers: { "x-correlation-id": "abc-123" } });
    assert.equal(given.headers.get("x-correlation-id"), "abc-123");
    const made = await fetch(`${app.baseUrl}/v1/actuator/info`, { headers: { "x-correlation-id": "bad id\twith tab" } });
    assert.match(made.headers.get("x-correlation-id") ?? "", /^[0-9a-f-]{36}$/);
  });
});

function grpcJsCall(port: number): Promise<ActuatorInfo> {
  const Client = grpc.makeGenericClientConstructor(
    {
      getActuatorInfo: {
        path: "/svc.v1.ActuatorService/GetActuatorInfo",
        requestStream: false,
        responseStream: false,
        requestSerialize: (value: unknown) => Buffer.from(toBinary(GetActuatorInfoRequestSchema, value as never)),
        requestDeserialize: (bytes: Buffer) => fromBinary(GetActuatorInfoRequestSchema, bytes),
        responseSerialize: (value: unknown) => Buffer.from(toBinary(ActuatorInfoSchema, value as never)),
        responseDeserialize: (bytes: Buffer) => fromBinary(ActuatorInfoSchema, bytes),
      },
    },
    "ActuatorService",
  );
  const client = new Client(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
  return new Promise((resolve, reject) => {
    client.makeUnaryRequest(
      "/svc.v1.ActuatorService/GetActuatorInfo",
      (value: unknown) => Buffer.from(toBinary(GetActuatorInfoRequestSchema, value as never)),
      (bytes: Buffer) => fromBinary(ActuatorInfoSchema, bytes),
      {},
      (error: grpc.ServiceError | null, value?: ActuatorInfo) => {
        client.close();
        if (error) reject(error);
        else resolve(value!);
      },
    );
  });
}
