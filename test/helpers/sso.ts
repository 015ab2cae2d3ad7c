// Single sign-on fixtures: the test-only SAML keys and certificates
// (test/fixtures/saml, made once with openssl), the JSON of identity
// providers as a client writes them, and WORKSPACE_PROFILE fields (the
// external URL, disallow_signup, …) set through UpdateSetting.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import type { restClient } from "./rest.ts";

type Rest = ReturnType<typeof restClient>;

const fixture = (name: string) => readFileSync(new URL(`../fixtures/saml/${name}`, import.meta.url), "utf8");

/** Key pairs: the identity provider's, this service's (signed requests), and a stranger's. */
export const SAML_KEYS = {
  idp: { key: fixture("idp-key.pem"), cert: fixture("idp-cert.pem") },
  sp: { key: fixture("sp-key.pem"), cert: fixture("sp-cert.pem") },
  other: { key: fixture("other-key.pem"), cert: fixture("other-cert.pem") },
};

export const SAML_IDP_ENTITY = "https://idp.test/saml";
export const SAML_SSO_URL = "https://idp.test/sso";

export function oidcProviderJson(issuer: string, overrides: Record<string, unknown> = {}) {
  return {
    title: "Company OIDC",
    config: { oidc: { issuer, clientId: "svc", clientSecret: "oidc-client-secret", scopes: ["openid", "email", "profile"], ...overrides } },
  };
}

export function samlProviderJson(overrides: Record<string, unknown> = {}) {
  return {
    title: "Company SAML",
    config: { saml: { entityId: SAML_IDP_ENTITY, ssoUrl: SAML_SSO_URL, idpCertificate: SAML_KEYS.idp.cert, ...overrides } },
  };
}

/**
 * Sets a WORKSPACE_PROFILE field that GetActuatorInfo also shows (externalUrl,
 * disallowSignup, disallowPasswordSignin) as an administrator, and waits until
 * the server reads the new value (settings are cached per process).
 */
export async function setProfileField(rest: Rest, adminToken: string, field: string, value: unknown): Promise<void> {
  const reply = await rest("PATCH", `/v1/settings/WORKSPACE_PROFILE?updateMask=workspaceProfile.${field}`, {
    token: adminToken,
    body: { name: "settings/WORKSPACE_PROFILE", value: { workspaceProfile: { [field]: value } } },
  });
  assert.equal(reply.status, 200, JSON.stringify(reply.body));
  for (const deadline = Date.now() + 10_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 20))) {
    const info = await rest<Record<string, unknown>>("GET", "/v1/actuator/info");
    if ((info.body[field] ?? false) === value) return;
  }
  assert.fail(`the server did not pick up workspaceProfile.${field} = ${JSON.stringify(value)}`);
}
