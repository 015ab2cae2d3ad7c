// TestIdentityProvider (contract §4.8): checks a stored provider and reports
// each check. OIDC: the issuer's discovery document is read now (no cache)
// and names the endpoints a sign-in needs. SAML: the certificates are current
// and the SP key matches its certificate; the SSO URL was checked when
// stored. Both need the external URL for their callback.
import { createPrivateKey, X509Certificate } from "node:crypto";
import type { SecretBox } from "../../platform/index.ts";
import type { OidcConfig, SamlConfig } from "./idp-config.ts";
import type { IdpRow } from "./idp.store.ts";
import { discoverOidc } from "./oidc.ts";
import { callbackUrl } from "./sso-urls.ts";

export interface IdpCheck {
  name: string;
  passed: boolean;
  message: string;
}

export async function testIdentityProvider(idp: IdpRow, secrets: SecretBox, externalUrl: string): Promise<{ passed: boolean; checks: IdpCheck[] }> {
  const checks = "oidc" in idp.config ? await oidcChecks(idp.config.oidc, secrets) : samlChecks(idp.config.saml, secrets);
  const callback = callbackUrl(idp.type, externalUrl);
  checks.push(
    callback
      ? { name: "callback URL", passed: true, message: `register ${callback} at the identity provider` }
      : { name: "callback URL", passed: false, message: "the workspace has no external URL: set WORKSPACE_PROFILE.external_url (or --external-url)" },
  );
  return { passed: checks.every((c) => c.passed), checks };
}

async function oidcChecks(oidc: OidcConfig, secrets: SecretBox): Promise<IdpCheck[]> {
  const name = "discovery document";
  try {
    const metadata = (await discoverOidc(oidc, secrets)).serverMetadata();
    const missing = (["authorization_endpoint", "token_endpoint", "jwks_uri"] as const).filter((key) => !metadata[key]);
    return [
      missing.length === 0
        ? { name, passed: true, message: `issuer ${metadata.issuer}: authorization, token and key endpoints found` }
        : { name, passed: false, message: `issuer ${metadata.issuer} does not name ${missing.join(", ")}` },
    ];
  } catch (error) {
    return [{ name, passed: false, message: (error as Error).message }];
  }
}

function samlChecks(saml: SamlConfig, secrets: SecretBox): IdpCheck[] {
  const checks = [certificateCheck("idp_certificate", saml.idpCertificate)];
  checks.push({ name: "sso_url", passed: true, message: `AuthnRequests go to ${saml.ssoUrl} (HTTP-Redirect binding)` });
  if (!saml.signRequests) return checks;
  checks.push(certificateCheck("sp_certificate", saml.spCertificate));
  try {
    const matches = new X509Certificate(saml.spCertificate).checkPrivateKey(createPrivateKey(secrets.open(saml.spPrivateKey)));
    checks.push({ name: "sp_private_key", passed: matches, message: matches ? "matches sp_certificate" : "does not match sp_certificate" });
  } catch (error) {
    checks.push({ name: "sp_private_key", passed: false, message: (error as Error).message });
  }
  return checks;
}

function certificateCheck(name: string, pem: string): IdpCheck {
  try {
    const cert = new X509Certificate(pem);
    const now = Date.now();
    const from = new Date(cert.validFrom);
    const to = new Date(cert.validTo);
    if (now < from.getTime()) return { name, passed: false, message: `not valid before ${from.toISOString()}` };
    if (now >= to.getTime()) return { name, passed: false, message: `expired on ${to.toISOString()}` };
    return { name, passed: true, message: `${cert.subject.replaceAll("\n", ", ")}, valid until ${to.toISOString()}` };
  } catch (error) {
    return { name, passed: false, message: `not a PEM X.509 certificate: ${(error as Error).message}` };
  }
}
