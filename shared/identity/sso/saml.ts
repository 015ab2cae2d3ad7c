// SAML 2.0 sign-in with samlify (contract §4.8): an AuthnRequest by the
// HTTP-Redirect binding (signed when the provider asks for it), and at the
// assertion consumer service a response whose signature (of the response or
// the assertion) is verified against the provider's certificate, with its
// issuer and validity window (samlify), then, read from the signed assertion
// only: the audience, the recipient, the subject confirmation's NotOnOrAfter
// and InResponseTo, and its id, which may be accepted once.
import { randomBytes } from "node:crypto";
import * as samlify from "samlify";
import type { CommonQueryMethods } from "slonik";
import { type SecretBox, unauthenticated } from "../../platform/index.ts";
import type { SamlConfig } from "./idp-config.ts";
import type { IdpRow } from "./idp.store.ts";
import "./saml-schema.ts";
import { insertLoginState, rememberAssertion, type LoginStateRow } from "./sso-state.store.ts";
import { SAML_ACS_PATH } from "./sso-urls.ts";

const { binding } = samlify.Constants.namespace;
const CLOCK_DRIFT_MS = 60_000;
// What samlify's error codes mean, for the refusal's message.
const SAMLIFY_REFUSALS: Record<string, string> = {
  FAILED_TO_VERIFY_SIGNATURE: "no signature verifies with the provider's certificate",
  ERROR_UNMATCH_CERTIFICATE_DECLARATION_IN_METADATA: "it is signed with a certificate other than the provider's",
  ERR_UNMATCH_ISSUER: "its issuer is not the provider's entity id",
  ERR_SUBJECT_UNCONFIRMED: "it is outside its validity window (Conditions)",
  ERR_EXPIRED_SESSION: "its session has expired (SessionNotOnOrAfter)",
  ERR_POTENTIAL_WRAPPING_ATTACK: "it wraps an assertion or signature inside another (signature wrapping)",
};

/** What the signed assertion says about the user: NameID and attributes. */
export interface SamlSubject {
  nameId: string;
  attributes: Record<string, unknown>;
}

function entities(saml: SamlConfig, secrets: SecretBox, base: string, relayState = "") {
  const sp = samlify.ServiceProvider({
    entityID: spEntityId(saml, base),
    authnRequestsSigned: saml.signRequests,
    wantAssertionsSigned: true,
    nameIDFormat: [saml.nameIdFormat],
    assertionConsumerService: [{ Binding: binding.post, Location: `${base}${SAML_ACS_PATH}` }],
    clockDrifts: [-CLOCK_DRIFT_MS, CLOCK_DRIFT_MS],
    relayState,
    ...(saml.signRequests ? { privateKey: secrets.open(saml.spPrivateKey), signingCert: saml.spCertificate } : {}),
  });
  return { sp, provider: samlify.IdentityProvider({ metadata: providerMetadata(saml) }) };
}

/** The provider's metadata, built from its configuration (only what a sign-in uses; no logout). */
function providerMetadata(saml: SamlConfig): string {
  const certificate = saml.idpCertificate.replace(/-----(BEGIN|END) CERTIFICATE-----|\s+/g, "");
  return (
    `<EntityDescriptor xmlns="urn:oasis:names:tc:SAML:2.0:metadata" entityID="${xmlText(saml.entityId)}">` +
    `<IDPSSODescriptor WantAuthnRequestsSigned="${saml.signRequests}" protocolSupportEnumeration="urn:oasis:names:tc:SAML:2.0:protocol">` +
    `<KeyDescriptor use="signing"><KeyInfo xmlns="http://www.w3.org/2000/09/xmldsig#"><X509Data><X509Certificate>${certificate}</X509Certificate></X509Data></KeyInfo></KeyDescriptor>` +
    `<NameIDFormat>${xmlText(saml.nameIdFormat)}</NameIDFormat>` +
    `<SingleSignOnService Binding="${binding.redirect}" Location="${xmlText(saml.ssoUrl)}"/>` +
    `</IDPSSODescriptor></EntityDescriptor>`
  );
}

function xmlText(value: string): string {
  return value.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** This service's entity id at the provider: configured, else the external URL. */
function spEntityId(saml: SamlConfig, base: string): string {
  return saml.spEntityId || base;
}

/** Records the pending sign-in (RelayState = state) and answers the provider's URL carrying the AuthnRequest. */
export async function startSaml(db: CommonQueryMethods, secrets: SecretBox, idp: IdpRow, saml: SamlConfig, base: string, redirect: string): Promise<string> {
  const state = randomBytes(32).toString("base64url");
  const { sp, provider } = entities(saml, secrets, base, state);
  const request = sp.createLoginRequest(provider, "redirect");
  await insertLoginState(db, { state, idpId: idp.id, requestId: request.id, redirect });
  return request.context;
}

/**
 * The subject of a verified response; unauthenticated when any check fails.
 * `sideDb` records the assertion id, so that a refused sign-in still spends it.
 */
export async function finishSaml(
  sideDb: CommonQueryMethods,
  secrets: SecretBox,
  idp: IdpRow,
  saml: SamlConfig,
  pending: LoginStateRow,
  base: string,
  samlResponse: string,
): Promise<SamlSubject> {
  const { sp, provider } = entities(saml, secrets, base);
  let parsed: { samlContent: string; extract: Record<string, unknown> };
  try {
    parsed = await sp.parseLoginResponse(provider, "post", { body: { SAMLResponse: samlResponse } });
  } catch (error) {
    const code = error instanceof Error ? error.message : String(error);
    throw refused(SAMLIFY_REFUSALS[code] ? `${SAMLIFY_REFUSALS[code]} (${code})` : code);
  }
  const [, assertion] = samlify.SamlLib.verifySignature(parsed.samlContent, {
    metadata: provider.entityMeta,
    signatureAlgorithm: provider.entitySetting.requestSignatureAlgorithm,
  });
  if (!assertion) throw refused("no signed assertion");
  const facts = assertionFacts(assertion);
  const audience = parsed.extract["audience"];
  if (audience !== spEntityId(saml, base)) throw refused(`the assertion's audience is ${JSON.stringify(audience)}, not ${spEntityId(saml, base)}`);
  if (facts.recipient !== `${base}${SAML_ACS_PATH}`) throw refused(`the assertion's recipient is ${JSON.stringify(facts.recipient)}, not this service`);
  const notOnOrAfter = Date.parse(facts.notOnOrAfter ?? "");
  if (!(notOnOrAfter + CLOCK_DRIFT_MS > Date.now())) throw refused("the assertion's subject confirmation has expired (NotOnOrAfter)");
  if (!facts.id || !(await rememberAssertion(sideDb, idp.id, facts.id, new Date(notOnOrAfter + CLOCK_DRIFT_MS)))) {
    throw refused("the assertion was already used (replay)");
  }
  if (!pending.requestId || facts.inResponseTo !== pending.requestId) throw refused("the assertion does not answer this sign-in's request (InResponseTo)");
  return { nameId: String(parsed.extract["nameID"] ?? ""), attributes: (parsed.extract["attributes"] as Record<string, unknown> | undefined) ?? {} };
}

interface AssertionFacts {
  id?: string;
  recipient?: string;
  notOnOrAfter?: string;
  inResponseTo?: string;
}

/** The assertion's id and its one bearer subject confirmation; several confirmations are refused. */
function assertionFacts(assertion: string): AssertionFacts {
  const extracted = samlify.Extractor.extract(assertion, [
    { key: "id", localPath: ["Assertion"], attributes: ["ID"] },
    {
      key: "confirmation",
      localPath: ["Assertion", "Subject", "SubjectConfirmation", "SubjectConfirmationData"],
      attributes: ["Recipient", "NotOnOrAfter", "InResponseTo"],
    },
  ]) as { id?: string; confirmation?: AssertionFacts | AssertionFacts[] };
  if (Array.isArray(extracted.confirmation)) throw refused("the assertion has several subject confirmations");
  return { ...extracted.confirmation, id: extracted.id };
}

function refused(reason: string): Error {
  return unauthenticated(`the SAML response was refused: ${reason}`);
}
