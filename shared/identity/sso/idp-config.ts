// An identity provider's configuration (contract §4.8): the shapes stored in
// identity_provider.config, the checks a new configuration must pass, and its
// credentials (OIDC client secret, SAML SP private key), which are sealed at
// rest (§9.4): absent from a write keeps the stored value, empty clears it
// (§3.4).
import { createPrivateKey, X509Certificate } from "node:crypto";
import { z } from "zod";
import { invalidArgument, quoted, type SecretBox } from "../../platform/index.ts";

const fieldMapping = z.object({ loginId: z.string(), email: z.string(), displayName: z.string(), groups: z.string() });

const oidcConfig = z.object({
  issuer: z.string(),
  clientId: z.string(),
  /** Sealed; "" when the client is public. */
  clientSecret: z.string(),
  scopes: z.array(z.string()),
  fieldMapping,
  skipTlsVerify: z.boolean(),
});

const samlConfig = z.object({
  entityId: z.string(),
  ssoUrl: z.string(),
  idpCertificate: z.string(),
  spEntityId: z.string(),
  nameIdFormat: z.string(),
  fieldMapping,
  signRequests: z.boolean(),
  spCertificate: z.string(),
  /** Sealed; "" when requests are not signed. */
  spPrivateKey: z.string(),
});

export const storedConfig = z.union([z.object({ oidc: oidcConfig }), z.object({ saml: samlConfig })]);

export type FieldMapping = z.infer<typeof fieldMapping>;
export type OidcConfig = z.infer<typeof oidcConfig>;
export type SamlConfig = z.infer<typeof samlConfig>;
export type IdpConfig = z.infer<typeof storedConfig>;
export type IdpType = "OIDC" | "SAML";

/** A configuration as a client writes it: credentials in clear, undefined when not sent. */
export type ConfigDraft =
  | { oidc: Omit<OidcConfig, "clientSecret"> & { clientSecret: string | undefined } }
  | { saml: Omit<SamlConfig, "spPrivateKey"> & { spPrivateKey: string | undefined } };

export function configType(config: IdpConfig | ConfigDraft): IdpType {
  return "oidc" in config ? "OIDC" : "SAML";
}

const PATH = "identity_provider.config";
const LOOPBACK = new Set(["localhost", "127.0.0.1", "[::1]"]);
const NAME_ID_EMAIL = "urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress";

/**
 * The configuration to store: checked, credentials sealed; a credential the
 * draft leaves undefined keeps its value from `stored` (an update).
 */
export function checkedConfig(draft: ConfigDraft, secrets: SecretBox, stored?: IdpConfig): IdpConfig {
  const keep = (sent: string | undefined, kept: string | undefined) => (sent === undefined ? (kept ?? "") : sent === "" ? "" : secrets.seal(sent));
  if ("oidc" in draft) {
    const oidc = draft.oidc;
    checkHttpsUrl(oidc.issuer, `${PATH}.oidc.issuer`);
    requireText(oidc.clientId, `${PATH}.oidc.clientId`);
    if (oidc.skipTlsVerify) {
      throw invalidArgument(`${PATH}.oidc.skipTlsVerify is not supported: TLS certificates are always verified; trust a private CA with NODE_EXTRA_CA_CERTS`);
    }
    oidc.scopes.forEach((scope, i) => checkToken(scope, `${PATH}.oidc.scopes[${i}]`));
    checkMapping(oidc.fieldMapping, `${PATH}.oidc.fieldMapping`);
    const clientSecret = keep(oidc.clientSecret, stored && "oidc" in stored ? stored.oidc.clientSecret : undefined);
    return { oidc: { ...oidc, issuer: oidc.issuer.replace(/\/+$/, ""), scopes: [...new Set(oidc.scopes)], clientSecret } };
  }
  const saml = draft.saml;
  requireText(saml.entityId, `${PATH}.saml.entityId`);
  checkHttpsUrl(saml.ssoUrl, `${PATH}.saml.ssoUrl`);
  checkCertificate(saml.idpCertificate, `${PATH}.saml.idpCertificate`);
  checkMapping(saml.fieldMapping, `${PATH}.saml.fieldMapping`);
  const spPrivateKey = keep(saml.spPrivateKey, stored && "saml" in stored ? stored.saml.spPrivateKey : undefined);
  if (saml.signRequests) {
    checkCertificate(saml.spCertificate, `${PATH}.saml.spCertificate`);
    if (!spPrivateKey) throw invalidArgument(`${PATH}.saml.spPrivateKey is required when signRequests is true`);
    if (saml.spPrivateKey) checkPrivateKey(saml.spPrivateKey, `${PATH}.saml.spPrivateKey`);
  } else if (saml.spCertificate) {
    checkCertificate(saml.spCertificate, `${PATH}.saml.spCertificate`);
  }
  return { saml: { ...saml, nameIdFormat: saml.nameIdFormat || NAME_ID_EMAIL, spPrivateKey } };
}

/** The issuer or SSO URL: https, or http on a loopback address (a provider on this machine). */
function checkHttpsUrl(value: string, path: string): void {
  const text = requireText(value, path);
  const url = URL.canParse(text) ? new URL(text) : undefined;
  const allowed = url && (url.protocol === "https:" || (url.protocol === "http:" && (LOOPBACK.has(url.hostname) || url.hostname.startsWith("127."))));
  if (!url || !allowed || url.hash || url.username) {
    throw invalidArgument(`${path} must be an https URL (http only on a loopback address), got ${quoted(value)}`);
  }
}

function requireText(value: string, path: string): string {
  if (!value.trim()) throw invalidArgument(`${path} is required`);
  return value.trim();
}

function checkToken(value: string, path: string): void {
  if (!/^[\x21-\x7e]+$/.test(value)) throw invalidArgument(`${path} must be a word without spaces, got ${quoted(value)}`);
}

function checkMapping(mapping: FieldMapping, path: string): void {
  for (const [key, value] of Object.entries(mapping)) if (value) checkToken(value, `${path}.${key}`);
}

function checkCertificate(pem: string, path: string): void {
  const text = requireText(pem, path);
  try {
    new X509Certificate(text);
  } catch {
    throw invalidArgument(`${path} is not a PEM X.509 certificate`);
  }
}

function checkPrivateKey(pem: string, path: string): void {
  try {
    createPrivateKey(pem);
  } catch {
    throw invalidArgument(`${path} is not a PEM private key`);
  }
}
