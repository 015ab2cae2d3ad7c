import { create } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import { LoginResponseSchema } from "@gen/svc/v1/auth_service_pb.js";
import { describe, expect, it } from "vitest";
import { sessionLossOf } from "../../api/session-signals.ts";
import { sessionAfterLogin, sessionAfterLoss } from "./session-state.ts";

const user = { loginId: "ann", name: "users/ann" };

describe("session state", () => {
  it("restricts a sign-in that must change its password, or enrol a second factor, first", () => {
    const reply = (extra: object) => create(LoginResponseSchema, { user, ...extra });
    expect(sessionAfterLogin(reply({}))).toMatchObject({ status: "signed-in", user });
    expect(sessionAfterLogin(reply({}))).not.toHaveProperty("restriction");
    expect(sessionAfterLogin(reply({ requireResetPassword: true, requireMfaEnrollment: true }))).toMatchObject({ restriction: "password-change" });
    expect(sessionAfterLogin(reply({ requireMfaEnrollment: true }))).toMatchObject({ restriction: "mfa-enrollment" });
  });

  it("reads the server's refusals of a session", () => {
    expect(sessionLossOf(new ConnectError("the access token is invalid, expired or revoked", Code.Unauthenticated))).toBe("signed-out");
    const restricted = new ConnectError("password change required: change your password with UpdateUser first", Code.PermissionDenied);
    expect(sessionLossOf(restricted)).toBe("password-change");
    expect(sessionLossOf(new ConnectError("second factor enrolment required: enrol …", Code.PermissionDenied))).toBe("mfa-enrollment");
    expect(sessionLossOf(new ConnectError("permission bb.projects.get required on projects/p", Code.PermissionDenied))).toBeUndefined();
  });

  it("ends or narrows a signed-in session only", () => {
    const signedIn = sessionAfterLogin(create(LoginResponseSchema, { user }));
    expect(sessionAfterLoss(signedIn, "signed-out")).toEqual({ status: "signed-out", reason: "expired" });
    expect(sessionAfterLoss(signedIn, "password-change")).toMatchObject({ status: "signed-in", restriction: "password-change" });
    expect(sessionAfterLoss({ status: "loading" }, "signed-out")).toEqual({ status: "loading" });
  });
});
