// Single sign-on from start to session (contract §4.8). StartSso records the
// pending sign-in and answers the provider's URL. A callback counts toward
// the per-IP sign-in limit (§4.5), spends the pending sign-in its state names
// and verifies the provider's answer, then signs the user in
// (sso-sign-in.ts); an OIDC login id or e-mail taken from an address the
// provider has not verified is refused. The state and the SAML assertion id
// are spent on the side pool, so that a refused callback cannot be replayed;
// every refusal is recorded as bb.auth.login.fail with its reason and the
// provider.
import { AuditAction, type CallAudit, type SettingReader, type WorkspaceProfile } from "../../governance/index.ts";
import { refuse, takeLoginRateLimit } from "../auth/login-refusal.ts";
import type { ClientFacts } from "../auth/sessions.ts";
import type { SignedIn } from "../auth/sign-in.ts";
import { type Db, invalidArgument, permissionDenied, quoted, RESOURCE_ID_PATTERN, type SecretBox, unauthenticated } from "../../platform/index.ts";
import type { IdpType } from "./idp-config.ts";
import { findIdp, type IdpRow } from "./idp.store.ts";
import { getIdp, idpName } from "./identity-providers.ts";
import { finishOidc, startOidc, type OidcCallback } from "./oidc.ts";
import { finishSaml, startSaml } from "./saml.ts";
import { oidcIdentity, readsUnverifiedEmail, samlIdentity, type SsoIdentity } from "./sso-identity.ts";
import { signInFromProvider } from "./sso-sign-in.ts";
import { refusing, SsoRefusal } from "./sso-refusal.ts";
import { takeLoginState, type LoginStateRow } from "./sso-state.store.ts";
import { checkedRedirect, ssoBaseUrl } from "./sso-urls.ts";

export interface SsoDeps {
  db: Db;
  /** Spends states and assertion ids, and counts the per-IP limit, whatever the call does. */
  sideDb: Db;
  secrets: SecretBox;
  settings: SettingReader;
}

/** A signed-in user and where the browser returns to (an absolute URL on this site). */
export interface SsoSignedIn extends SignedIn {
  location: string;
}

/** The provider's sign-in URL for a new pending sign-in that returns to `redirect`. */
export async function startSso(deps: SsoDeps, externalUrl: string, idpId: string, redirect: string): Promise<string> {
  const base = ssoBaseUrl(externalUrl);
  const path = checkedRedirect(redirect, base);
  if (!RESOURCE_ID_PATTERN.test(idpId)) throw invalidArgument(`idp_id: ${quoted(idpId)} is not a valid identity provider id`);
  const idp = await getIdp(deps.db, idpId);
  return "oidc" in idp.config
    ? startOidc(deps.db, deps.secrets, idp, idp.config.oidc, base, path)
    : startSaml(deps.db, deps.secrets, idp, idp.config.saml, base, path);
}

export async function oidcSignIn(deps: SsoDeps, audit: CallAudit, profile: WorkspaceProfile, client: ClientFacts, externalUrl: string, callback: OidcCallback): Promise<SsoSignedIn> {
  const { base, pending, idp } = await beginCallback(deps, audit, client, externalUrl, callback.state, "OIDC");
  if (!("oidc" in idp.config)) throw new Error(`identity provider ${idp.id} of type OIDC has no OIDC configuration`);
  const oidc = idp.config.oidc;
  const claims = await refusing(audit, SsoRefusal.rejectedAnswer, finishOidc(deps.secrets, idp, oidc, pending, base, callback));
  if (readsUnverifiedEmail(oidc.fieldMapping, claims)) {
    const message = "the identity provider has not verified this account's e-mail address (email_verified is not true), which the login id or e-mail is taken from; verify the address at the provider, or map other claims";
    throw refuse(audit, SsoRefusal.unverifiedEmail, permissionDenied(message));
  }
  return finish(deps, audit, profile, client, idp, oidcIdentity(oidc.fieldMapping, claims), `${base}${pending.redirect}`);
}

export async function samlSignIn(deps: SsoDeps, audit: CallAudit, profile: WorkspaceProfile, client: ClientFacts, externalUrl: string, relayState: string, samlResponse: string): Promise<SsoSignedIn> {
  const { base, pending, idp } = await beginCallback(deps, audit, client, externalUrl, relayState, "SAML");
  if (!("saml" in idp.config)) throw new Error(`identity provider ${idp.id} of type SAML has no SAML configuration`);
  const saml = idp.config.saml;
  const subject = await refusing(audit, SsoRefusal.rejectedAnswer, finishSaml(deps.sideDb, deps.secrets, idp, saml, pending, base, samlResponse));
  return finish(deps, audit, profile, client, idp, samlIdentity(saml.fieldMapping, subject), `${base}${pending.redirect}`);
}

/** Counts the attempt, spends its pending sign-in and finds the provider that started it. */
async function beginCallback(deps: SsoDeps, audit: CallAudit, client: ClientFacts, externalUrl: string, state: string, type: IdpType) {
  audit.action = AuditAction.loginFail; // a refusal, unless the sign-in succeeds
  await takeLoginRateLimit(deps.sideDb, audit, client.clientIp);
  const base = ssoBaseUrl(externalUrl);
  const pending: LoginStateRow | undefined = state ? await takeLoginState(deps.sideDb, state) : undefined;
  if (!pending || pending.expired) {
    throw refuse(audit, SsoRefusal.unknownState, unauthenticated("this sign-in is unknown, expired or already finished; start it again"));
  }
  audit.resource = idpName(pending.idpId);
  audit.detail = { ...audit.detail, idp: idpName(pending.idpId) };
  const idp: IdpRow | undefined = await findIdp(audit.tx, pending.idpId);
  if (!idp || idp.type !== type) {
    throw refuse(audit, SsoRefusal.wrongProvider, unauthenticated(`this sign-in was started with ${idpName(pending.idpId)}, which is no ${type} provider now; start it again`));
  }
  return { base, pending, idp };
}

async function finish(deps: SsoDeps, audit: CallAudit, profile: WorkspaceProfile, client: ClientFacts, idp: IdpRow, identity: SsoIdentity, location: string): Promise<SsoSignedIn> {
  const signedIn = await signInFromProvider(audit, deps.settings, profile, client, { name: idpName(idp.id), type: idp.type }, identity);
  return { ...signedIn, location };
}
