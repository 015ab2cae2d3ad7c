// OpenID Connect sign-in with openid-client (contract §4.8): discovery, the
// authorization code flow with PKCE S256, state and nonce kept server-side,
// and the ID token verified (issuer, audience, nonce, expiry and signature,
// non-repudiation checks on). Claims are the ID token's, completed by the
// userinfo endpoint when the provider has one.
import * as client from "openid-client";
import type { CommonQueryMethods } from "slonik";
import { type SecretBox, unauthenticated, unavailable } from "../../platform/index.ts";
import type { OidcConfig } from "./idp-config.ts";
import type { IdpRow } from "./idp.store.ts";
import { insertLoginState, type LoginStateRow } from "./sso-state.store.ts";
import { OIDC_CALLBACK_PATH } from "./sso-urls.ts";

/** The answer of the provider at the redirect URI. */
export interface OidcCallback {
  code: string;
  state: string;
  iss: string;
  error: string;
  errorDescription: string;
}

const DEFAULT_SCOPES = ["openid", "email", "profile"];
const TIMEOUT_SECONDS = 10;
const CACHE_MS = 5 * 60_000;
// Discovered configurations by provider id and etag: an edit of the provider starts afresh.
const configurations = new Map<string, { config: client.Configuration; at: number }>();

/** The provider's discovered configuration (cached 5 minutes); unavailable when it cannot be read. */
async function oidcConfiguration(idp: IdpRow, oidc: OidcConfig, secrets: SecretBox): Promise<client.Configuration> {
  const key = `${idp.id}:${idp.etag}`;
  const cached = configurations.get(key);
  if (cached && Date.now() - cached.at < CACHE_MS) return cached.config;
  const config = await discoverOidc(oidc, secrets);
  for (const [k, entry] of configurations) if (k.startsWith(`${idp.id}:`) || Date.now() - entry.at >= CACHE_MS) configurations.delete(k);
  configurations.set(key, { config, at: Date.now() });
  return config;
}

/** Reads the issuer's discovery document (no cache); unavailable when it cannot be read. */
export async function discoverOidc(oidc: OidcConfig, secrets: SecretBox): Promise<client.Configuration> {
  const issuer = new URL(oidc.issuer);
  const secret = oidc.clientSecret ? secrets.open(oidc.clientSecret) : undefined;
  const execute = [client.enableNonRepudiationChecks, ...(issuer.protocol === "http:" ? [client.allowInsecureRequests] : [])];
  try {
    return await client.discovery(issuer, oidc.clientId, secret, secret ? client.ClientSecretBasic(secret) : client.None(), {
      execute,
      timeout: TIMEOUT_SECONDS,
    });
  } catch (error) {
    throw unavailable(`the discovery document of ${oidc.issuer} could not be read: ${(error as Error).message}`);
  }
}

/** Records the pending sign-in and answers the provider's authorization URL. */
export async function startOidc(db: CommonQueryMethods, secrets: SecretBox, idp: IdpRow, oidc: OidcConfig, base: string, redirect: string): Promise<string> {
  const config = await oidcConfiguration(idp, oidc, secrets);
  const codeVerifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  await insertLoginState(db, { state, idpId: idp.id, nonce, codeVerifier, redirect });
  return client
    .buildAuthorizationUrl(config, {
      redirect_uri: `${base}${OIDC_CALLBACK_PATH}`,
      scope: [...new Set(["openid", ...(oidc.scopes.length ? oidc.scopes : DEFAULT_SCOPES)])].join(" "),
      code_challenge: await client.calculatePKCECodeChallenge(codeVerifier),
      code_challenge_method: "S256",
      state,
      nonce,
    })
    .toString();
}

/** The verified claims of the signed-in user; unauthenticated when any check fails. */
export async function finishOidc(
  secrets: SecretBox,
  idp: IdpRow,
  oidc: OidcConfig,
  pending: LoginStateRow,
  base: string,
  callback: OidcCallback,
): Promise<Record<string, unknown>> {
  if (callback.error) {
    throw unauthenticated(`the identity provider refused the sign-in: ${callback.error}${callback.errorDescription ? ` (${callback.errorDescription})` : ""}`);
  }
  const config = await oidcConfiguration(idp, oidc, secrets);
  const currentUrl = new URL(`${base}${OIDC_CALLBACK_PATH}`);
  for (const [key, value] of Object.entries({ code: callback.code, state: callback.state, iss: callback.iss })) {
    if (value) currentUrl.searchParams.set(key, value);
  }
  try {
    const tokens = await client.authorizationCodeGrant(config, currentUrl, {
      pkceCodeVerifier: pending.codeVerifier,
      expectedState: callback.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const claims = tokens.claims()!;
    const userinfo = config.serverMetadata().userinfo_endpoint ? await client.fetchUserInfo(config, tokens.access_token, claims.sub) : {};
    return { ...claims, ...userinfo };
  } catch (error) {
    throw unauthenticated(`the identity provider's answer was refused: ${explained(error as Error)}`);
  }
}

/** openid-client's message, with the check that failed (its cause) when it names one. */
function explained(error: Error): string {
  return error.cause instanceof Error ? `${error.message}: ${error.cause.message}` : error.message;
}
