import { create } from "@bufbuild/protobuf";
import { ActuatorInfoSchema } from "@gen/svc/v1/actuator_service_pb.js";
import { IdentityProviderSchema } from "@gen/svc/v1/identity_provider_service_pb.js";
import { describe, expect, it } from "vitest";
import { signInMethods, ssoLinks } from "./sign-in-methods.ts";

describe("sign-in methods", () => {
  it("offers the password alone until the workspace's facts are known", () => {
    expect(signInMethods(undefined)).toEqual({ password: "open", emailCode: false, signUp: false });
  });

  it("follows the workspace's switches; password sign-in turned off stays for administrators, and sign-up goes with it", () => {
    expect(signInMethods(create(ActuatorInfoSchema, {}))).toEqual({ password: "open", emailCode: false, signUp: true });
    const closed = create(ActuatorInfoSchema, { disallowPasswordSignin: true, allowEmailCodeSignin: true });
    expect(signInMethods(closed)).toEqual({ password: "administrators", emailCode: true, signUp: false });
    expect(signInMethods(create(ActuatorInfoSchema, { disallowSignup: true })).signUp).toBe(false);
  });

  it("links each identity provider to its start, returning to the page asked for", () => {
    const providers = [create(IdentityProviderSchema, { name: "idps/corp", title: "Corp SSO" }), create(IdentityProviderSchema, { name: "idps/x y" })];
    expect(ssoLinks(providers, "/issues?view=mine")).toEqual([
      { key: "idps/corp", title: "Corp SSO", href: "/v1/auth/idps/corp:start?redirect=%2Fissues%3Fview%3Dmine" },
      { key: "idps/x y", title: "x y", href: "/v1/auth/idps/x%20y:start?redirect=%2Fissues%3Fview%3Dmine" },
    ]);
  });
});
