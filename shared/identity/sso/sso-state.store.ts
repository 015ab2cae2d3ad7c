// SQL on sso_login_state (sign-ins under way, single-use, 10 minutes) and
// saml_assertion_seen (accepted SAML assertion ids, until they expire).
// Expired rows are removed by the worker's periodic clean-up.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";

const LIFETIME = sql.fragment`interval '10 minutes'`;

const stateRow = z
  .object({
    idp_id: z.string(),
    nonce: z.string(),
    code_verifier: z.string(),
    request_id: z.string(),
    redirect: z.string(),
    expired: z.boolean(),
  })
  .transform((r) => ({
    idpId: r.idp_id,
    nonce: r.nonce,
    codeVerifier: r.code_verifier,
    requestId: r.request_id,
    redirect: r.redirect,
    expired: r.expired,
  }));

export type LoginStateRow = z.infer<typeof stateRow>;

export interface NewLoginState {
  state: string;
  idpId: string;
  /** OIDC: the ID token's expected nonce and the PKCE verifier. */
  nonce?: string;
  codeVerifier?: string;
  /** SAML: the AuthnRequest id the response must answer. */
  requestId?: string;
  redirect: string;
}

export async function insertLoginState(db: CommonQueryMethods, row: NewLoginState): Promise<void> {
  await db.query(sql.unsafe`
    insert into sso_login_state (state, idp_id, nonce, code_verifier, request_id, redirect, expire_time)
    values (${row.state}, ${row.idpId}, ${row.nonce ?? ""}, ${row.codeVerifier ?? ""}, ${row.requestId ?? ""}, ${row.redirect},
            now() + ${LIFETIME})`);
}

/** Spends the state: the row it named (maybe expired), or undefined when unknown or already spent. */
export async function takeLoginState(db: CommonQueryMethods, state: string): Promise<LoginStateRow | undefined> {
  const row = await db.maybeOne(sql.type(stateRow)`
    delete from sso_login_state where state = ${state}
    returning idp_id, nonce, code_verifier, request_id, redirect, expire_time <= now() as expired`);
  return row ?? undefined;
}

/** Records an accepted assertion id; false when it was seen before (a replay). */
export async function rememberAssertion(db: CommonQueryMethods, idpId: string, assertionId: string, expireTime: Date): Promise<boolean> {
  const result = await db.query(sql.unsafe`
    insert into saml_assertion_seen (idp_id, assertion_id, expire_time)
    values (${idpId}, ${assertionId}, ${expireTime.toISOString()})
    on conflict do nothing`);
  return result.rowCount === 1;
}

/** Deletes the sign-ins under way that have expired and the assertion ids past their expiry; answers how many of each. */
export async function deleteExpiredSsoState(db: CommonQueryMethods): Promise<{ states: number; assertions: number }> {
  const states = await db.query(sql.unsafe`delete from sso_login_state where expire_time <= now()`);
  const assertions = await db.query(sql.unsafe`delete from saml_assertion_seen where expire_time <= now()`);
  return { states: states.rowCount, assertions: assertions.rowCount };
}
