// Who signed in at the identity provider, as this service sees it (contract
// §4.8): login id, e-mail, display name and groups, read from the OIDC claims
// or SAML attributes named by the provider's field mapping, with defaults
// for the fields it leaves empty.
import type { FieldMapping } from "./idp-config.ts";
import type { SamlSubject } from "./saml.ts";

export interface SsoIdentity {
  /** As the provider sent it; checked and normalised when the user signs in. */
  loginId: string;
  email: string;
  displayName: string;
  groups: string[];
}

const OIDC_DEFAULTS: FieldMapping = { loginId: "email", email: "email", displayName: "name", groups: "groups" };
const SAML_DEFAULTS: FieldMapping = { loginId: "", email: "email", displayName: "displayName", groups: "groups" };

export function oidcIdentity(mapping: FieldMapping, claims: Record<string, unknown>): SsoIdentity {
  const field = (key: keyof FieldMapping) => claims[mapping[key] || OIDC_DEFAULTS[key]];
  return { loginId: text(field("loginId")), email: text(field("email")), displayName: text(field("displayName")), groups: list(field("groups")) };
}

/**
 * True when the login id or the e-mail is read from the `email` claim while
 * the provider does not vouch for it (`email_verified` is not true): anyone
 * able to type an address at such a provider could otherwise sign in as the
 * user it belongs to here.
 */
export function readsUnverifiedEmail(mapping: FieldMapping, claims: Record<string, unknown>): boolean {
  const claimOf = (key: keyof FieldMapping) => mapping[key] || OIDC_DEFAULTS[key];
  return (claimOf("loginId") === "email" || claimOf("email") === "email") && claims["email_verified"] !== true;
}

/** The login id is the NameID unless the mapping names an attribute. */
export function samlIdentity(mapping: FieldMapping, subject: SamlSubject): SsoIdentity {
  const field = (key: keyof FieldMapping) => subject.attributes[mapping[key] || SAML_DEFAULTS[key]];
  return {
    loginId: mapping.loginId ? text(field("loginId")) : subject.nameId,
    email: text(field("email")),
    displayName: text(field("displayName")),
    groups: list(field("groups")),
  };
}

function text(value: unknown): string {
  if (Array.isArray(value)) return text(value[0]);
  return typeof value === "string" || typeof value === "number" ? String(value).trim() : "";
}

function list(value: unknown): string[] {
  const values = Array.isArray(value) ? value : value === undefined || value === null ? [] : [value];
  return [...new Set(values.map(text).filter(Boolean))];
}
