// Identity providers (contract §4.1, §4.8, §3.4): CRUD over REST, Connect
// and gRPC; credentials sealed in the table and never returned (only their
// `_set` flags) nor audited; a public list that shows only name, title and
// type; permissions; TestIdentityProvider's report; a form body refused where
// the method does not declare it.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { Code, ConnectError, createClient } from "@connectrpc/connect";
import { createConnectTransport, createGrpcTransport } from "@connectrpc/connect-node";
import { IdentityProvider_Type, IdentityProviderService } from "../shared/gen/svc/v1/identity_provider_service_pb.js";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { restClient } from "./helpers/rest.ts";
import { signIn, signInFirstAdmin } from "./helpers/sessions.ts";
import { oidcProviderJson, SAML_KEYS, samlProviderJson, setProfileField } from "./helpers/sso.ts";
import { ADMIN, makeUser } from "./helpers/users.ts";

type Json = Record<string, any>;

describe("identity providers", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;
  const token = { admin: "", bob: "", officer: "" };
  const call = (method: string, path: string, body?: unknown, as = token.admin) => rest<Json>(method, path, { token: as, body });
  const create = async (id: string, body: unknown) => {
    const reply = await call("POST", `/v1/idps?idpId=${id}`, body);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return reply.body;
  };
  const storedConfig = async (id: string) =>
    (await adminQuery(`select config from identity_provider where id = '${id}'`, app.database.url)).rows[0]?.config as Json | undefined;
  const refusal = (reply: { status: number; body: Json }) => [reply.status, reply.body.code];

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    token.admin = await signInFirstAdmin(rest);
    await makeUser(app.db, "bob");
    await makeUser(app.db, "officer");
    const policy = await call("POST", "/v1/workspaces/-:setIamPolicy", {
      policy: { bindings: [{ role: "roles/workspaceAdmin", members: ["user:login_id=admin"] }, { role: "roles/securityOfficer", members: ["user:login_id=officer"] }] },
    });
    assert.equal(policy.status, 200, JSON.stringify(policy.body));
    token.bob = await signIn(rest, "bob");
    token.officer = await signIn(rest, "officer");
  });
  after(() => app.close());

  it("creates an OIDC provider whose client secret is sealed in the table and never returned or audited", async () => {
    const created = await create("okta", { ...oidcProviderJson("https://login.example.com/"), domain: "Example.com" });
    assert.equal(created.name, "idps/okta");
    assert.equal(created.type, "OIDC");
    assert.equal(created.domain, "example.com");
    assert.deepEqual(created.config.oidc, {
      issuer: "https://login.example.com",
      clientId: "svc",
      clientSecretSet: true,
      scopes: ["openid", "email", "profile"],
      fieldMapping: {},
    });
    assert.ok(created.etag && created.createTime && created.updateTime);
    const stored = await storedConfig("okta");
    assert.match(stored!.oidc.clientSecret, /^sealed:v1:/);
    assert.ok(!JSON.stringify(stored).includes("oidc-client-secret"));
    const got = await call("GET", "/v1/idps/okta");
    assert.equal(got.status, 200);
    assert.deepEqual(got.body, created);
    const audit = await adminQuery(`select actor, resource, status_code, request, response from audit_log where action = 'bb.identityProviders.create'`, app.database.url);
    assert.deepEqual(audit.rows.map((r) => [r.actor, r.resource, r.status_code]), [["users/admin", "idps/okta", "ok"]]);
    assert.ok(!JSON.stringify(audit.rows).includes("oidc-client-secret"));
    assert.match(audit.rows[0].request, /"clientSecret":"\*\*\*"/);
  });

  it("updates by mask: an absent secret is kept, an empty one cleared; the type cannot change; a stale etag is refused", async () => {
    const created = await create("keep", oidcProviderJson("https://keep.example.com"));
    const sealed = (await storedConfig("keep"))!.oidc.clientSecret;
    const renamed = await call("PATCH", "/v1/idps/keep?updateMask=title,config", {
      title: "Renamed",
      config: { oidc: { issuer: "https://keep.example.com", clientId: "svc2" } },
      etag: created.etag,
    });
    assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
    assert.deepEqual([renamed.body.title, renamed.body.config.oidc.clientId, renamed.body.config.oidc.clientSecretSet], ["Renamed", "svc2", true]);
    assert.equal((await storedConfig("keep"))!.oidc.clientSecret, sealed);
    const cleared = await call("PATCH", "/v1/idps/keep?updateMask=config", { config: { oidc: { issuer: "https://keep.example.com", clientId: "svc2", clientSecret: "" } } });
    assert.equal(cleared.body.config.oidc.clientSecretSet, undefined);
    assert.equal((await storedConfig("keep"))!.oidc.clientSecret, "");
    const stale = await call("PATCH", "/v1/idps/keep?updateMask=title", { title: "x", etag: created.etag });
    assert.deepEqual(refusal(stale), [409, "aborted"]);
    const typeChange = await call("PATCH", "/v1/idps/keep?updateMask=config", samlProviderJson());
    assert.deepEqual(refusal(typeChange), [400, "invalid_argument"]);
    assert.match(typeChange.body.message, /type is OIDC and cannot change/);
    const outputOnly = await call("PATCH", "/v1/idps/keep?updateMask=type", { type: "SAML" });
    assert.match(outputOnly.body.message, /field type is output only/);
    assert.deepEqual(refusal(await call("PATCH", "/v1/idps/nothere?updateMask=title", { title: "x" })), [404, "not_found"]);
  });

  it("creates a SAML provider: certificates are checked, signed requests need the SP key, which is sealed", async () => {
    const plain = await create("adfs", samlProviderJson());
    assert.deepEqual(plain.config.saml.nameIdFormat, "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress");
    assert.equal(plain.config.saml.spPrivateKeySet, undefined);
    const noKey = await call("POST", "/v1/idps?idpId=signed", samlProviderJson({ signRequests: true, spCertificate: SAML_KEYS.sp.cert }));
    assert.deepEqual(refusal(noKey), [400, "invalid_argument"]);
    assert.match(noKey.body.message, /identity_provider\.config\.saml\.spPrivateKey is required when signRequests is true/);
    const signed = await create("signed", samlProviderJson({ signRequests: true, spCertificate: SAML_KEYS.sp.cert, spPrivateKey: SAML_KEYS.sp.key }));
    assert.equal(signed.config.saml.spPrivateKeySet, true);
    assert.equal(signed.config.saml.spPrivateKey, undefined);
    const stored = await storedConfig("signed");
    assert.match(stored!.saml.spPrivateKey, /^sealed:v1:/);
    assert.ok(!JSON.stringify(stored).includes("PRIVATE KEY"));
  });

  it("refuses bad input with the field named, duplicates and unknown providers", async () => {
    const cases: [string, unknown, RegExp][] = [
      ["Bad_Id", oidcProviderJson("https://a.example.com"), /idp_id: "Bad_Id" is not a valid id/],
      ["noconfig", { title: "x" }, /identity_provider\.config is required/],
      ["notitle", { ...oidcProviderJson("https://a.example.com"), title: " " }, /identity_provider\.title is required/],
      ["plainhttp", oidcProviderJson("http://login.example.com"), /config\.oidc\.issuer must be an https URL/],
      ["noclient", oidcProviderJson("https://a.example.com", { clientId: "" }), /config\.oidc\.clientId is required/],
      ["skiptls", oidcProviderJson("https://a.example.com", { skipTlsVerify: true }), /skipTlsVerify is not supported/],
      ["badscope", oidcProviderJson("https://a.example.com", { scopes: ["open id"] }), /config\.oidc\.scopes\[0\]/],
      ["badcert", samlProviderJson({ idpCertificate: "-----BEGIN CERTIFICATE-----\nnope\n-----END CERTIFICATE-----" }), /config\.saml\.idpCertificate is not a PEM X\.509 certificate/],
      ["badkey", samlProviderJson({ signRequests: true, spCertificate: SAML_KEYS.sp.cert, spPrivateKey: "nope" }), /config\.saml\.spPrivateKey is not a PEM private key/],
      ["baddomain", { ...samlProviderJson(), domain: "not a domain" }, /identity_provider\.domain/],
    ];
    for (const [id, body, message] of cases) {
      const reply = await call("POST", `/v1/idps?idpId=${id}`, body);
      assert.deepEqual(refusal(reply), [400, "invalid_argument"], id);
      assert.match(reply.body.message, message, id);
    }
    await create("twice", samlProviderJson());
    assert.deepEqual(refusal(await call("POST", "/v1/idps?idpId=twice", samlProviderJson())), [409, "already_exists"]);
    assert.deepEqual(refusal(await call("GET", "/v1/idps/missing")), [404, "not_found"]);
    assert.deepEqual(refusal(await call("GET", "/v1/idps/Bad_Name")), [400, "invalid_argument"]);
  });

  it("lists publicly with name, title and type only; in full with bb.identityProviders.get; in pages", async () => {
    const anonymous = await rest<Json>("GET", "/v1/idps");
    assert.equal(anonymous.status, 200);
    assert.ok(anonymous.body.identityProviders.length >= 2);
    for (const idp of anonymous.body.identityProviders) assert.deepEqual(Object.keys(idp).sort(), ["name", "title", "type"]);
    const member = await call("GET", "/v1/idps", undefined, token.bob);
    assert.ok(member.body.identityProviders.every((idp: Json) => idp.config === undefined));
    const officer = await call("GET", "/v1/idps", undefined, token.officer);
    assert.ok(officer.body.identityProviders.every((idp: Json) => idp.config !== undefined && idp.etag));
    const names: string[] = [];
    let pageToken = "";
    do {
      const page = await call("GET", `/v1/idps?pageSize=2${pageToken ? `&pageToken=${pageToken}` : ""}`);
      assert.ok(page.body.identityProviders.length <= 2);
      names.push(...page.body.identityProviders.map((idp: Json) => idp.name));
      pageToken = page.body.nextPageToken ?? "";
    } while (pageToken);
    assert.deepEqual(names, [...names].sort());
    assert.deepEqual(names, officer.body.identityProviders.map((idp: Json) => idp.name));
  });

  it("needs bb.identityProviders.* for everything but the list; refused writes are audited", async () => {
    await create("guarded", samlProviderJson());
    const attempts: [string, string, unknown?][] = [
      ["GET", "/v1/idps/guarded"],
      ["POST", "/v1/idps?idpId=sneaky", samlProviderJson()],
      ["PATCH", "/v1/idps/guarded?updateMask=title", { title: "x" }],
      ["DELETE", "/v1/idps/guarded"],
      ["POST", "/v1/idps/guarded:test", {}],
    ];
    for (const [method, path, body] of attempts) assert.deepEqual(refusal(await call(method, path, body, token.bob)), [403, "permission_denied"], path);
    assert.equal((await call("GET", "/v1/idps/guarded", undefined, token.officer)).status, 200);
    assert.deepEqual(refusal(await call("DELETE", "/v1/idps/guarded", undefined, token.officer)), [403, "permission_denied"]);
    const unsigned = await rest<Json>("GET", "/v1/idps/guarded");
    assert.deepEqual(refusal(unsigned), [401, "unauthenticated"]);
    const refused = await adminQuery(
      `select actor, action, status_code from audit_log where action like 'bb.identityProviders.%' and status_code = 'permission_denied' order by id`, app.database.url);
    assert.deepEqual(refused.rows.map((r) => Object.values(r)), [
      ["users/bob", "bb.identityProviders.create", "permission_denied"],
      ["users/bob", "bb.identityProviders.update", "permission_denied"],
      ["users/bob", "bb.identityProviders.delete", "permission_denied"],
      ["users/officer", "bb.identityProviders.delete", "permission_denied"],
    ]);
  });

  it("deletes a provider, audited", async () => {
    await create("gone", samlProviderJson());
    assert.equal((await call("DELETE", "/v1/idps/gone")).status, 200);
    assert.deepEqual(refusal(await call("GET", "/v1/idps/gone")), [404, "not_found"]);
    assert.deepEqual(refusal(await call("DELETE", "/v1/idps/gone")), [404, "not_found"]);
    const rows = await adminQuery(`select status_code from audit_log where action = 'bb.identityProviders.delete' and resource = 'idps/gone' order by id`, app.database.url);
    assert.deepEqual(rows.rows.map((r) => r.status_code), ["ok", "not_found"]);
  });

  it("TestIdentityProvider reports each check: certificates, discovery, the callback URL", async () => {
    await create("tested", samlProviderJson({ signRequests: true, spCertificate: SAML_KEYS.sp.cert, spPrivateKey: SAML_KEYS.sp.key }));
    const before = await call("POST", "/v1/idps/tested:test", {});
    assert.equal(before.status, 200, JSON.stringify(before.body));
    assert.equal(before.body.passed, undefined);
    const byName = (checks: Json[]) => Object.fromEntries(checks.map((c) => [c.name, c.passed ?? false]));
    assert.deepEqual(byName(before.body.checks), { idp_certificate: true, sso_url: true, sp_certificate: true, sp_private_key: true, "callback URL": false });
    await setProfileField(rest, token.admin, "externalUrl", "https://svc.example.com");
    const after = await call("POST", "/v1/idps/tested:test", {});
    assert.equal(after.body.passed, true);
    assert.match(after.body.checks.at(-1).message, /https:\/\/svc\.example\.com\/v1\/auth\/saml\/acs/);
    assert.equal((await call("GET", "/v1/idps/tested")).body.callbackUrl, "https://svc.example.com/v1/auth/saml/acs");
    await create("unreachable", oidcProviderJson("http://127.0.0.1:1"));
    const oidc = await call("POST", "/v1/idps/unreachable:test", {});
    assert.equal(oidc.status, 200);
    assert.equal(oidc.body.checks[0].name, "discovery document");
    assert.equal(oidc.body.checks[0].passed, undefined);
    assert.match(oidc.body.checks[0].message, /discovery document of http:\/\/127\.0\.0\.1:1 could not be read/);
  });

  it("serves the same over Connect and gRPC, never returning a credential", async () => {
    const as = { headers: { authorization: `Bearer ${token.admin}` } };
    const connect = createClient(IdentityProviderService, createConnectTransport({ baseUrl: app.baseUrl, httpVersion: "1.1" }));
    const grpc = createClient(IdentityProviderService, createGrpcTransport({ baseUrl: app.baseUrl }));
    const created = await connect.createIdentityProvider(
      { idpId: "viaconnect", identityProvider: { title: "C", config: { config: { case: "oidc", value: { issuer: "https://c.example.com", clientId: "c", clientSecret: "top-secret" } } } } },
      as,
    );
    assert.equal(created.type, IdentityProvider_Type.OIDC);
    const got = await grpc.getIdentityProvider({ name: "idps/viaconnect" }, as);
    assert.equal(got.config?.config.case, "oidc");
    const oidc = got.config!.config.value as { clientSecret?: string; clientSecretSet: boolean };
    assert.deepEqual([oidc.clientSecret, oidc.clientSecretSet], [undefined, true]);
    const codeOf = async (call: Promise<unknown>) => ConnectError.from(await call.then(() => undefined, (e: unknown) => e)).code;
    assert.equal(await codeOf(grpc.deleteIdentityProvider({ name: "idps/viaconnect" }, { headers: { authorization: `Bearer ${token.bob}` } })), Code.PermissionDenied);
    await grpc.deleteIdentityProvider({ name: "idps/viaconnect" }, as);
    assert.equal(await codeOf(connect.getIdentityProvider({ name: "idps/viaconnect" }, as)), Code.NotFound);
  });

  it("refuses a form-encoded body for a method that does not declare it (415)", async () => {
    const res = await fetch(`${app.baseUrl}/v1/idps?idpId=form`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", authorization: `Bearer ${token.admin}` },
      body: "title=x",
    });
    assert.equal(res.status, 415);
    assert.equal(((await res.json()) as Json).code, "invalid_argument");
  });
});
