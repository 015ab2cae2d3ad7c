// The console's CSRF defence (contract §19.5, decision 0090): a call that
// changes state and is authenticated by the session cookie must carry
// `X-Svc-Csrf: 1`, in every API form; reads, bearer tokens and sign-in,
// refresh and sign-out need no header; a public call sent with the cookie
// and no header runs anonymous.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { create, toBinary } from "@bufbuild/protobuf";
import { FieldMaskSchema } from "@bufbuild/protobuf/wkt";
import { methodOptions } from "../api/transport/method-options.ts";
import { AuditLogService } from "../shared/gen/svc/v1/audit_log_service_pb.js";
import { AuthService } from "../shared/gen/svc/v1/auth_service_pb.js";
import { UpdateUserRequestSchema, UserService } from "../shared/gen/svc/v1/user_service_pb.js";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { envelope, grpcCall, grpcWebCall, httpCall, type RawAnswer } from "./helpers/raw-rpc.ts";
import { restClient } from "./helpers/rest.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { ADMIN, makeUser, STRONG_PASSWORD } from "./helpers/users.ts";

const CSRF = { "x-svc-csrf": "1" };
type Form = "rest" | "connect" | "grpc-web" | "grpc";
const FORMS: Form[] = ["rest", "connect", "grpc-web", "grpc"];

describe("CSRF defence for cookie-authenticated calls", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  /** The Cookie header of a browser session, as `web: true` sign-in sets it. */
  const browserSession = async (loginId: string): Promise<string> => {
    const res = await rest("POST", "/v1/auth/login", { body: { loginId, password: STRONG_PASSWORD, web: true } });
    assert.equal(res.status, 200, JSON.stringify(res.body));
    return res.headers.getSetCookie().map((c) => c.split(";")[0]!).join("; ");
  };

  /** bob's UpdateUser (his own title) in one API form. */
  const updateTitle = (form: Form, title: string, headers: Record<string, string>): Promise<RawAnswer> => {
    const rpc = `/${UserService.typeName}/${UserService.method.updateUser.name}`;
    if (form === "rest") {
      const body = JSON.stringify({ user: { title }, updateMask: "title" });
      return httpCall(`${app.baseUrl}/v1/users/bob`, { method: "PATCH", headers: { "content-type": "application/json", ...headers }, body });
    }
    if (form === "connect") {
      const body = JSON.stringify({ user: { name: "users/bob", title }, updateMask: "title" });
      return httpCall(`${app.baseUrl}${rpc}`, { method: "POST", headers: { "content-type": "application/json", ...headers }, body });
    }
    const message = create(UpdateUserRequestSchema, { user: { name: "users/bob", title }, updateMask: create(FieldMaskSchema, { paths: ["title"] }) });
    const body = envelope(toBinary(UpdateUserRequestSchema, message));
    return form === "grpc" ? grpcCall(app.baseUrl, rpc, headers, body) : grpcWebCall(`${app.baseUrl}${rpc}`, headers, body);
  };
  const bobTitle = async (token: string) => (await rest<{ title: string }>("GET", "/v1/users/bob", { token })).body.title;

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    await makeUser(app.db, "bob");
    await signInFirstAdmin(rest);
  });
  after(() => app.close());

  it("classes reads by their GET binding or NO_SIDE_EFFECTS, and everything else as a change", () => {
    assert.equal(methodOptions(UserService.method.getCurrentUser).read, true, "GET /v1/users/me");
    assert.equal(methodOptions(AuditLogService.method.searchAuditLogs).read, true, "POST with NO_SIDE_EFFECTS");
    assert.equal(methodOptions(UserService.method.updateUser).read, false);
    assert.equal(methodOptions(AuthService.method.logout).read, false);
  });

  for (const form of FORMS) {
    it(`refuses a change authenticated by the cookie without the header, and allows it with the header (${form})`, async () => {
      const cookie = await browserSession("bob");
      const refused = await updateTitle(form, `refused ${form}`, { cookie });
      assert.equal(refused.error?.code, "permission_denied", refused.text);
      assert.match(refused.error!.message, /X-Svc-Csrf: 1/);
      if (form === "rest" || form === "connect") assert.equal(refused.status, 403);
      const token = await signIn(rest, "bob");
      assert.equal(await bobTitle(token), "bob", "the refused call changed nothing");

      const allowed = await updateTitle(form, `allowed ${form}`, { cookie, ...CSRF });
      assert.equal(allowed.error, undefined, allowed.text);
      assert.equal(await bobTitle(token), `allowed ${form}`);
      await rest("PATCH", "/v1/users/bob", { token, body: { user: { title: "bob" }, updateMask: "title" } });
    });
  }

  it("takes only the value 1", async () => {
    const cookie = await browserSession("bob");
    const refused = await updateTitle("rest", "zero", { cookie, "x-svc-csrf": "0" });
    assert.equal(refused.error?.code, "permission_denied");
  });

  it("leaves bearer tokens alone, the cookie beside them included", async () => {
    const token = await signIn(rest, "bob");
    const cookie = await browserSession("bob");
    for (const form of FORMS) {
      const answer = await updateTitle(form, `bearer ${form}`, { authorization: `Bearer ${token}`, cookie });
      assert.equal(answer.error, undefined, `${form}: ${answer.text}`);
    }
    await rest("PATCH", "/v1/users/bob", { token, body: { user: { title: "bob" }, updateMask: "title" } });
  });

  it("lets the cookie authenticate reads without the header, over REST and Connect", async () => {
    const cookie = await browserSession(ADMIN.loginId);
    const me = await httpCall(`${app.baseUrl}/v1/users/me`, { headers: { cookie } });
    assert.equal(me.status, 200, me.text);
    const search = await httpCall(`${app.baseUrl}/${AuditLogService.typeName}/SearchAuditLogs`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ pageSize: 1 }),
    });
    assert.equal(search.status, 200, search.text);
  });

  it("exempts sign-in, refresh and sign-out", async () => {
    const cookie = await browserSession("bob");
    const login = await httpCall(`${app.baseUrl}/v1/auth/login`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ loginId: "bob", password: STRONG_PASSWORD, web: true }),
    });
    assert.equal(login.status, 200, login.text);
    const refreshed = await fetch(`${app.baseUrl}/${AuthService.typeName}/Refresh`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: JSON.stringify({ web: true }),
    });
    assert.equal(refreshed.status, 200, await refreshed.text());
    const renewed = refreshed.headers.getSetCookie().map((c) => c.split(";")[0]!);
    assert.deepEqual(renewed.map((c) => c.split("=")[0]).sort(), ["access-token", "refresh-token"], "Connect sets both cookies");
    const logout = await httpCall(`${app.baseUrl}/v1/auth/logout`, { method: "POST", headers: { "content-type": "application/json", cookie: renewed.join("; ") }, body: "{}" });
    assert.equal(logout.status, 200, logout.text);
    const after = await httpCall(`${app.baseUrl}/v1/users/me`, { headers: { cookie: renewed.join("; ") } });
    assert.equal(after.status, 401, "signed out");
  });

  it("runs a public call sent with the cookie and no header as an anonymous one", async () => {
    const cookie = await browserSession(ADMIN.loginId);
    const serviceAccount = (loginId: string) => JSON.stringify({ type: "SERVICE_ACCOUNT", email: `${loginId}@example.com` });
    const anonymous = await httpCall(`${app.baseUrl}/v1/users?loginId=robot-one`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie },
      body: serviceAccount("robot-one"),
    });
    assert.equal(anonymous.error?.code, "permission_denied", anonymous.text);
    assert.match(anonymous.error!.message, /sign-up creates a user without roles/, "the administrator's cookie granted nothing");
    const asAdmin = await httpCall(`${app.baseUrl}/v1/users?loginId=robot-two`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie, ...CSRF },
      body: serviceAccount("robot-two"),
    });
    assert.equal(asAdmin.status, 200, asAdmin.text);
  });
});
