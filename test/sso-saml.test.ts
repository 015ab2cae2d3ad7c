// SAML single sign-on end to end (contract §4.8) against a samlify identity
// provider run by the test with fixed test-only keys: StartSso answers 303
// with an AuthnRequest (signed when configured), the provider's signed
// response is posted as a browser form to the assertion consumer service,
// which signs the user in and answers 303 with the session cookies. Tampered,
// unsigned, foreign-signed, wrongly addressed, expired, unrelated and
// replayed responses are refused and recorded.
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, before, describe, it } from "node:test";
import * as samlify from "samlify";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { adminQuery } from "./helpers/db.ts";
import { restClient } from "./helpers/rest.ts";
import { signInFirstAdmin } from "./helpers/sessions.ts";
import { SAML_IDP_ENTITY, SAML_KEYS, SAML_SSO_URL, samlProviderJson, setProfileField } from "./helpers/sso.ts";
import { ADMIN } from "./helpers/users.ts";

type Json = Record<string, any>;
const { binding } = samlify.Constants.namespace;
const EMAIL_FORMAT = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";
const ACS = "/v1/auth/saml/acs";

describe("SAML single sign-on", () => {
  let app: TestApp;
  let rest: ReturnType<typeof restClient>;

  const identityProvider = (keys = SAML_KEYS.idp, wantAuthnRequestsSigned = false) =>
    samlify.IdentityProvider({
      entityID: SAML_IDP_ENTITY,
      privateKey: keys.key,
      signingCert: keys.cert,
      singleSignOnService: [{ Binding: binding.redirect, Location: SAML_SSO_URL }],
      singleLogoutService: [{ Binding: binding.redirect, Location: "https://idp.test/slo" }],
      nameIDFormat: [EMAIL_FORMAT],
      wantAuthnRequestsSigned,
    });
  /** The service as the provider knows it (its SP metadata). */
  const serviceProvider = (signed = false) =>
    samlify.ServiceProvider({
      entityID: app.baseUrl,
      assertionConsumerService: [{ Binding: binding.post, Location: `${app.baseUrl}${ACS}` }],
      wantAssertionsSigned: true,
      authnRequestsSigned: signed,
      nameIDFormat: [EMAIL_FORMAT],
      ...(signed ? { signingCert: SAML_KEYS.sp.cert } : {}),
    });

  /** StartSso: the provider URL it redirects to, with the AuthnRequest and RelayState. */
  const start = async (idpId = "adfs") => {
    const res = await fetch(`${app.baseUrl}/v1/auth/idps/${idpId}:start?redirect=/home`, { redirect: "manual" });
    assert.equal(res.status, 303, await res.text());
    const url = new URL(res.headers.get("location")!);
    assert.equal(`${url.origin}${url.pathname}`, SAML_SSO_URL);
    return url;
  };
  /** The provider's side: reads the AuthnRequest and answers a signed response for `email`. */
  const respond = async (url: URL, options: { email?: string; groups?: string[]; keys?: typeof SAML_KEYS.idp; values?: Record<string, string> } = {}) => {
    const parsed = await identityProvider().parseLoginRequest(serviceProvider(), "redirect", { query: Object.fromEntries(url.searchParams) });
    const requestId = (parsed.extract as { request: { id: string } }).request.id;
    const email = options.email ?? "sam@example.com";
    const attributes = { email: [email], displayName: ["Sam"], groups: options.groups ?? [] };
    const { context } = await identityProvider(options.keys).createLoginResponse(serviceProvider(), { extract: { request: { id: requestId } } }, "post", { email }, (template: string) => {
      const now = new Date();
      const later = new Date(now.getTime() + 5 * 60_000).toISOString();
      const id = `_${randomUUID()}`;
      const values = {
        ID: id, AssertionID: `_${randomUUID()}`, Destination: `${app.baseUrl}${ACS}`, Audience: app.baseUrl, SubjectRecipient: `${app.baseUrl}${ACS}`,
        Issuer: SAML_IDP_ENTITY, IssueInstant: now.toISOString(), StatusCode: "urn:oasis:names:tc:SAML:2.0:status:Success",
        ConditionsNotBefore: now.toISOString(), ConditionsNotOnOrAfter: later, SubjectConfirmationDataNotOnOrAfter: later,
        NameIDFormat: EMAIL_FORMAT, NameID: email, InResponseTo: requestId, AuthnStatement: "", ...options.values,
      };
      const withAttributes = template.replace("{AttributeStatement}", attributeStatement(attributes));
      return { id, context: samlify.SamlLib.replaceTagsByValue(withAttributes, values) };
    });
    return { samlResponse: context as string, relayState: url.searchParams.get("RelayState")! };
  };
  /** The browser's form post to the assertion consumer service. */
  const post = (samlResponse: string, relayState: string) =>
    fetch(`${app.baseUrl}${ACS}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: relayState }).toString(),
    });
  const refusedWith = async (res: Response, message: RegExp) => {
    assert.equal(res.status, 401);
    const body = (await res.json()) as Json;
    assert.equal(body.code, "unauthenticated");
    assert.match(body.message, message);
  };
  const rewrite = (samlResponse: string, edit: (xml: string) => string) => Buffer.from(edit(Buffer.from(samlResponse, "base64").toString("utf8"))).toString("base64");

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    const admin = await signInFirstAdmin(rest);
    await setProfileField(rest, admin, "externalUrl", app.baseUrl);
    for (const [id, body] of [
      ["adfs", samlProviderJson()],
      ["signed", samlProviderJson({ signRequests: true, spCertificate: SAML_KEYS.sp.cert, spPrivateKey: SAML_KEYS.sp.key })],
    ] as const) {
      const created = await rest<Json>("POST", `/v1/idps?idpId=${id}`, { token: admin, body });
      assert.equal(created.status, 200, JSON.stringify(created.body));
    }
    const mapping = await rest<Json>("PATCH", "/v1/settings/SSO_GROUP_MAPPING?updateMask=*", {
      token: admin,
      body: { value: { ssoGroupMapping: { mappings: [{ idp: "idps/adfs", group: "ops", bindings: [{ role: "roles/workspaceDBA", scope: "workspaces/-" }] }] } } },
    });
    assert.equal(mapping.status, 200, JSON.stringify(mapping.body));
  });
  after(() => app.close());

  it("accepts a signed response posted as a form: the user is created, signed in with cookies and sent to the path given", async () => {
    const { samlResponse, relayState } = await respond(await start(), { groups: ["ops"] });
    const res = await post(samlResponse, relayState);
    assert.equal(res.status, 303, await res.text());
    assert.equal(res.headers.get("location"), `${app.baseUrl}/home`);
    const access = res.headers.getSetCookie().find((c) => c.startsWith("access-token="))!.split(";")[0]!;
    const me = await fetch(`${app.baseUrl}/v1/users/me`, { headers: { cookie: access } });
    const user = (await me.json()) as Json;
    assert.deepEqual([me.status, user.name, user.title, user.source], [200, "users/sam@example.com", "Sam", "SAML"]);
    const policy = (await adminQuery(`select bindings from iam_policy where scope = 'workspaces/-'`, app.database.url)).rows[0].bindings as Json[];
    assert.ok(policy.some((b) => b.role === "roles/workspaceDBA" && b.members[0] === "user:login_id=sam@example.com" && b.condition.title === "SSO_GROUP_MAPPING idps/adfs"));
    const record = await adminQuery(`select action, actor, detail, request from audit_log where action = 'bb.auth.login' order by id desc limit 1`, app.database.url);
    assert.deepEqual([record.rows[0].actor, record.rows[0].detail.idp], ["users/sam@example.com", "idps/adfs"]);
    assert.ok(!record.rows[0].request.includes(samlResponse.slice(0, 40)), "the SAML response is not stored in the audit log");
  });

  it("refuses a tampered, an unsigned and a foreign-signed response", async () => {
    const tampered = await respond(await start());
    await refusedWith(await post(rewrite(tampered.samlResponse, (xml) => xml.replaceAll("sam@example.com", "mallory@example.com")), tampered.relayState), /no signature verifies with the provider's certificate/);
    const unsigned = await respond(await start());
    await refusedWith(await post(rewrite(unsigned.samlResponse, (xml) => xml.replace(/<ds:Signature[\s\S]*?<\/ds:Signature>/g, "")), unsigned.relayState), /no signature verifies/);
    const foreign = await respond(await start(), { keys: SAML_KEYS.other });
    await refusedWith(await post(foreign.samlResponse, foreign.relayState), /signed with a certificate other than the provider's/);
    const rows = await adminQuery(`select detail->>'reason' as reason, detail->>'idp' as idp from audit_log where action = 'bb.auth.login.fail' order by id desc limit 3`, app.database.url);
    assert.deepEqual(rows.rows.map((r) => [r.reason, r.idp]), Array(3).fill(["identity provider answer rejected", "idps/adfs"]));
    const users = await adminQuery(`select count(*)::int as n from principal where login_id = 'mallory@example.com'`, app.database.url);
    assert.equal(users.rows[0].n, 0);
  });

  it("refuses a wrong audience, a wrong recipient, an expired confirmation and an answer to another request", async () => {
    const audience = await respond(await start(), { values: { Audience: "https://other.example.com" } });
    await refusedWith(await post(audience.samlResponse, audience.relayState), /audience is "https:\/\/other\.example\.com"/);
    const recipient = await respond(await start(), { values: { SubjectRecipient: "https://other.example.com/acs" } });
    await refusedWith(await post(recipient.samlResponse, recipient.relayState), /recipient/);
    const expired = await respond(await start(), { values: { SubjectConfirmationDataNotOnOrAfter: new Date(Date.now() - 10 * 60_000).toISOString() } });
    await refusedWith(await post(expired.samlResponse, expired.relayState), /expired \(NotOnOrAfter\)/);
    const first = await start();
    const second = await start();
    const crossed = await respond(first);
    await refusedWith(await post(crossed.samlResponse, second.searchParams.get("RelayState")!), /InResponseTo/);
  });

  it("refuses a replayed assertion and a spent RelayState", async () => {
    const { samlResponse, relayState } = await respond(await start());
    assert.equal((await post(samlResponse, relayState)).status, 303);
    await refusedWith(await post(samlResponse, relayState), /unknown, expired or already finished/);
    const fresh = await start();
    await refusedWith(await post(samlResponse, fresh.searchParams.get("RelayState")!), /already used \(replay\)/);
    const seen = await adminQuery(`select count(*)::int as n from saml_assertion_seen where idp_id = 'adfs'`, app.database.url);
    assert.ok(seen.rows[0].n >= 2);
  });

  it("signs AuthnRequests when configured, verifiable with the service's certificate", async () => {
    const url = await start("signed");
    assert.ok(url.searchParams.get("Signature") && url.searchParams.get("SigAlg"));
    const octetString = url.search.slice(1).split("&Signature=")[0]!;
    const request = await identityProvider(SAML_KEYS.idp, true).parseLoginRequest(serviceProvider(true), "redirect", {
      query: Object.fromEntries(url.searchParams),
      octetString,
    });
    assert.ok((request.extract as { request: { id: string } }).request.id);
    const forged = octetString.replace(/RelayState=[^&]+/, "RelayState=forged");
    await assert.rejects(
      identityProvider(SAML_KEYS.idp, true).parseLoginRequest(serviceProvider(true), "redirect", { query: Object.fromEntries(url.searchParams), octetString: forged }),
    );
  });

  it("the assertion consumer service also takes a JSON body", async () => {
    const { samlResponse, relayState } = await respond(await start(), { email: "json@example.com" });
    const reply = await fetch(`${app.baseUrl}${ACS}`, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ SAMLResponse: samlResponse, RelayState: relayState }),
    });
    assert.equal(reply.status, 303, await reply.text());
    assert.equal(reply.headers.get("location"), `${app.baseUrl}/home`);
  });
});

function attributeStatement(attributes: Record<string, string[]>): string {
  const values = (list: string[]) => list.map((v) => `<saml:AttributeValue xsi:type="xs:string">${v}</saml:AttributeValue>`).join("");
  const each = Object.entries(attributes).filter(([, list]) => list.length > 0).map(([name, list]) => `<saml:Attribute Name="${name}">${values(list)}</saml:Attribute>`);
  return `<saml:AttributeStatement>${each.join("")}</saml:AttributeStatement>`;
}
