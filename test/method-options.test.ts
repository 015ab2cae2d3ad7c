// Inventory: every svc.v1 RPC declares exactly one access option of contract
// §0.2, and REST binding. It reads the descriptors, so new RPCs are covered.
import assert from "node:assert/strict";
import { readdir } from "node:fs/promises";
import { describe, it } from "node:test";
import { create, hasOption, setExtension, type DescService } from "@bufbuild/protobuf";
import { MethodOptionsSchema } from "@bufbuild/protobuf/wkt";
import { declaredAccessOptions, methodOptions, MethodOptionsError } from "../api/transport/method-options.ts";
import { http } from "../shared/gen/google/api/annotations_pb.js";
import { allow_without_credential, audit, audit_at_end, permission } from "../shared/gen/svc/v1/annotation_pb.js";
import { TranscodingService } from "./gen/svctest/v1/transcoding_service_pb.js";

async function svcServices(): Promise<DescService[]> {
  const dir = new URL("../shared/gen/svc/v1/", import.meta.url);
  const services: DescService[] = [];
  for (const file of (await readdir(dir)).filter((f) => f.endsWith("_service_pb.js"))) {
    const module = (await import(new URL(file, dir).href)) as Record<string, unknown>;
    for (const value of Object.values(module)) {
      if (typeof value === "object" && value !== null && (value as DescService).kind === "service") services.push(value as DescService);
    }
  }
  return services;
}

describe("method options inventory", () => {
  it("finds the svc.v1 services", async () => {
    const names = (await svcServices()).map((s) => s.typeName);
    assert.ok(names.includes("svc.v1.ActuatorService"), names.join(","));
  });

  it("every svc.v1 RPC declares exactly one access option and a REST binding", async () => {
    const problems: string[] = [];
    for (const service of await svcServices()) {
      for (const method of service.methods) {
        const declared = declaredAccessOptions(method);
        const rpc = `${service.typeName}.${method.name}`;
        if (declared.length !== 1) problems.push(`${rpc}: ${declared.length ? declared.join(" + ") : "no access option"}`);
        if (method.methodKind === "unary" && !hasOption(method, http)) problems.push(`${rpc}: no google.api.http binding`);
      }
    }
    assert.deepEqual(problems, []);
  });

  it("refuses a method with no access option or with two", () => {
    const method = TranscodingService.method.getThing;
    const withOptions = (options: ReturnType<typeof create<typeof MethodOptionsSchema>>) =>
      ({ ...method, proto: { ...method.proto, options } }) as typeof method;
    const two = create(MethodOptionsSchema);
    setExtension(two, allow_without_credential, true);
    setExtension(two, permission, "bb.projects.get");
    assert.deepEqual(declaredAccessOptions(method), ["allow_without_credential"]);
    assert.throws(() => methodOptions(withOptions(create(MethodOptionsSchema))), MethodOptionsError);
    assert.throws(() => methodOptions(withOptions(two)), /declares permission, allow_without_credential/);
  });

  it("refuses audit_at_end without an audit action, and reads it with one", () => {
    const method = TranscodingService.method.getThing;
    const withOptions = (atEnd: boolean, action: string) => {
      const options = create(MethodOptionsSchema);
      setExtension(options, allow_without_credential, true);
      setExtension(options, audit_at_end, atEnd);
      if (action) setExtension(options, audit, action);
      return { ...method, proto: { ...method.proto, options } } as typeof method;
    };
    assert.throws(() => methodOptions(withOptions(true, "")), /GetThing declares audit_at_end without an audit action/);
    assert.equal(methodOptions(withOptions(true, "bb.things.get")).auditAtEnd, true);
    assert.equal(methodOptions(withOptions(false, "bb.things.get")).auditAtEnd, false);
  });

  it("reads the access kind of each option", () => {
    assert.deepEqual(methodOptions(TranscodingService.method.getThing).access, { kind: "public" });
    assert.deepEqual(methodOptions(TranscodingService.method.getSecretThing).access, { kind: "authenticated" });
  });
});
