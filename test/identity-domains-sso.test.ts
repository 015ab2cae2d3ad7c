// Workspace e-mail domains at single sign-on (contract §7.2, §4.8), against a
// real OpenID provider on loopback: while the domains are enforced, a first
// sign-in, or a later one bringing a new address, outside them is refused
// and recorded as bb.auth.login.fail like the other refusals, and no user is
// created; a user already outside before the rule was turned on still signs
// in with the address it has.
import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startTestApp, type TestApp } from "./helpers/app.ts";
import { Browser } from "./helpers/browser.ts";
import { adminQuery } from "./helpers/db.ts";
import { startOidcProvider, type TestOidcProvider } from "./helpers/oidc-provider.ts";
import { restClient } from "./helpers/rest.ts";
import { signInFirstAdmin } from "./helpers/sessions.ts";
import { oidcProviderJson, setProfileField } from "./helpers/sso.ts";
import { ADMIN } from "./helpers/users.ts";

type Json = Record<string, any>;
const CALLBACK = "/v1/auth/oidc/callback";

describe("workspace e-mail domains at single sign-on", () => {
  let app: TestApp;
  let idp: TestOidcProvider;
  let rest: ReturnType<typeof restClient>;
  let admin = "";
  const sql = (text: string) => adminQuery(text, app.database.url);

  /** A whole sign-in through the provider as `account`; the callback's answer. */
  const signInAs = async (sub: string, email: string) => {
    idp.account = { sub, email, name: sub, groups: [] };
    const browser = new Browser();
    const start = await browser.request(new URL(`${app.baseUrl}/v1/auth/idps/corp:start?redirect=/home`));
    assert.equal(start.status, 303, await start.text());
    const step = await browser.follow(start.headers.get("location")!, { stopBefore: (next) => next.pathname === CALLBACK });
    const response = await browser.request(step.url);
    return { status: response.status, body: response.status === 303 ? {} : ((await response.json()) as Json) };
  };
  const emailOf = async (loginId: string) => (await sql(`select email from principal where login_id = '${loginId}'`)).rows[0]?.email as string | undefined;
  const lastLoginRecord = async () =>
    (await sql(`select action, actor, status_code, detail from audit_log where action like 'bb.auth.login%' order by id desc limit 1`)).rows[0] as Json;

  before(async () => {
    app = await startTestApp({ bootstrap: ADMIN });
    rest = restClient(app.baseUrl);
    admin = await signInFirstAdmin(rest);
    idp = await startOidcProvider(`${app.baseUrl}${CALLBACK}`);
    // The login id is the subject, so that a user's address can change between sign-ins.
    const created = await rest<Json>("POST", "/v1/idps?idpId=corp", { token: admin, body: oidcProviderJson(idp.issuer, { fieldMapping: { loginId: "sub" } }) });
    assert.equal(created.status, 200, JSON.stringify(created.body));
    await setProfileField(rest, admin, "externalUrl", app.baseUrl);
    assert.equal((await signInAs("frank", "frank@evil.com")).status, 303, "signed up before the rule");
    const enforced = await rest<Json>("PATCH", "/v1/settings/WORKSPACE_PROFILE?updateMask=workspaceProfile.domains,workspaceProfile.enforceIdentityDomain", {
      token: admin,
      body: { value: { workspaceProfile: { domains: ["example.com"], enforceIdentityDomain: true } } },
    });
    assert.equal(enforced.status, 200, JSON.stringify(enforced.body));
  });
  after(async () => {
    await idp.close();
    await app.close();
  });

  it("refuses a first sign-in outside the domains, recorded as a failed sign-in, and creates no user", async () => {
    const refused = await signInAs("dan", "dan@evil.com");
    assert.deepEqual([refused.status, refused.body.code, refused.body.message], [400, "failed_precondition", `e-mail "dan@evil.com" is outside the workspace's domains: example.com`]);
    assert.equal(await emailOf("dan"), undefined);
    const record = await lastLoginRecord();
    assert.deepEqual([record.action, record.actor, record.status_code], ["bb.auth.login.fail", "users/dan", "failed_precondition"]);
    assert.deepEqual([record.detail.reason, record.detail.idp], ["e-mail outside the workspace's domains", "idps/corp"]);
    assert.equal((await signInAs("dan", "dan@sso.example.com")).status, 400, "a subdomain is not included");
    assert.equal((await sql(`select count(*)::int as n from audit_log where action = 'bb.users.create' and resource = 'users/dan'`)).rows[0].n, 0);
  });

  it("creates a user inside the domains, ignoring case, and refuses a later sign-in that brings an address outside", async () => {
    assert.equal((await signInAs("erin", "Erin@EXAMPLE.com")).status, 303);
    assert.equal(await emailOf("erin"), "erin@example.com");
    const moved = await signInAs("erin", "erin@evil.com");
    assert.deepEqual([moved.status, moved.body.code], [400, "failed_precondition"]);
    assert.equal((await lastLoginRecord()).detail.reason, "e-mail outside the workspace's domains");
    assert.equal(await emailOf("erin"), "erin@example.com", "the stored address stays");
  });

  it("lets a user already outside sign in with the address it has, and refuses it a new one outside", async () => {
    assert.equal((await signInAs("frank", "frank@evil.com")).status, 303);
    assert.equal((await lastLoginRecord()).action, "bb.auth.login");
    assert.equal((await signInAs("frank", "frank@other.evil.com")).status, 400);
    assert.equal((await signInAs("frank", "frank@example.com")).status, 303, "moving inside the domains is allowed");
    assert.equal(await emailOf("frank"), "frank@example.com");
  });
});
