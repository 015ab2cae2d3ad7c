// The end of a single sign-on (contract §4.8, §18.4): the provider's user
// becomes a user of this service. First sign-in creates it (END_USER, source
// OIDC or SAML, no password, a workspace member like every new user) unless
// disallow_signup; later sign-ins match it by login id and refresh its e-mail
// and title. Two first sign-ins at once (two browser tabs) create it once:
// the second finds the row the first committed and is matched. A local
// account with the same login id is never taken over: it signs in with its
// password (an administrator may delete it first). Then SSO_GROUP_MAPPING is
// applied and a session issued; the service asks no second factor of users
// from a provider, and disallow_password_signin does not concern them. A
// first sign-in, or a new address brought by a later one, outside the
// workspace's enforced domains is refused and recorded like the other
// refusals; an existing user whose stored address is outside still signs in.
import { refuse } from "../auth/login-refusal.ts";
import { normalizeLoginId, parseEmail, permissionDenied, quoted, unauthenticated, userName } from "../../platform/index.ts";
import type { ClientFacts } from "../auth/sessions.ts";
import { signIn, type SignedIn } from "../auth/sign-in.ts";
import type { CallAudit, SettingReader, WorkspaceProfile } from "../../governance/index.ts";
import { OutsideDomainsError } from "../user/identity-domain.ts";
import { addUser } from "../user/new-user.ts";
import { writeUserProfile } from "../user/user-profile.ts";
import { findUserByLoginId, type UserRow } from "../user/user.store.ts";
import { applyGroupMapping } from "./group-mapping.ts";
import type { IdpType } from "./idp-config.ts";
import { refusing, SsoRefusal } from "./sso-refusal.ts";
import type { SsoIdentity } from "./sso-identity.ts";

export interface SsoSource {
  /** idps/<id> */
  name: string;
  type: IdpType;
}

export async function signInFromProvider(
  audit: CallAudit,
  settings: SettingReader,
  profile: WorkspaceProfile,
  client: ClientFacts,
  idp: SsoSource,
  identity: SsoIdentity,
): Promise<SignedIn> {
  const loginId = normalizeLoginId(identity.loginId);
  if (!loginId) {
    const message = `the identity provider's login id ${JSON.stringify(identity.loginId)} is not a valid login id; check the provider's field mapping`;
    throw refuse(audit, SsoRefusal.badLoginId, unauthenticated(message));
  }
  audit.actor = userName(loginId);
  audit.resource = userName(loginId);
  const user = await providerUser(audit, profile, idp, loginId, identity);
  await applyGroupMapping(audit, settings, idp.name, loginId, identity.groups);
  return signIn(audit, profile, client, user);
}

/** The user of the login id: matched, or created at its first sign-in. */
async function providerUser(audit: CallAudit, profile: WorkspaceProfile, idp: SsoSource, loginId: string, identity: SsoIdentity): Promise<UserRow> {
  const existing = await matchedUser(audit, profile, loginId, identity);
  if (existing) return existing;
  const created = await refusingOutsideDomains(audit, addUser(audit, {
    user: {
      loginId,
      email: emailOf(identity),
      title: identity.displayName || loginId,
      type: "END_USER",
      source: idp.type,
      passwordHash: null,
      requireResetPassword: false,
    },
    roles: [],
    maximumRoleExpirationMs: profile.maximumRoleExpirationMs,
    grantedBy: userName(loginId),
    detail: { idp: idp.name },
  }));
  if (created) return created;
  // A concurrent first sign-in created it and has committed: match it like any existing user.
  const raced = await matchedUser(audit, profile, loginId, identity);
  if (!raced) throw new Error(`user "${loginId}" was neither created nor found`);
  return raced;
}

/** The existing user of the login id, its profile refreshed; undefined when there is none. */
async function matchedUser(audit: CallAudit, profile: WorkspaceProfile, loginId: string, identity: SsoIdentity): Promise<UserRow | undefined> {
  const user = await findUserByLoginId(audit.tx, loginId);
  if (!user) {
    if (profile.disallowSignup) {
      throw refuse(audit, SsoRefusal.signupDisabled, permissionDenied(`sign-up is disabled in this workspace and user ${quoted(loginId)} does not exist; ask an administrator`));
    }
    return undefined;
  }
  if (user.source === "LOCAL") {
    const message = `user "${loginId}" is a local account and cannot sign in through an identity provider; sign in with its password`;
    throw refuse(audit, SsoRefusal.localAccount, permissionDenied(message));
  }
  if (user.state !== "ACTIVE" || user.type !== "END_USER") {
    throw refuse(audit, SsoRefusal.inactiveUser, permissionDenied(`user ${quoted(loginId)} is deleted or cannot sign in`));
  }
  const email = emailOf(identity) || user.email;
  const title = identity.displayName || user.title;
  if (email === user.email && title === user.title) return user;
  await refusingOutsideDomains(audit, writeUserProfile(audit.tx, user, { email, title }));
  return { ...user, email, title };
}

/** The provider's e-mail when it is one (lower-case), else "". */
function emailOf(identity: SsoIdentity): string {
  try {
    return parseEmail(identity.email, "email");
  } catch {
    return "";
  }
}

/** The outcome of a user's write; a refusal by the workspace's domains is recorded as the sign-in's. */
function refusingOutsideDomains<T>(audit: CallAudit, write: Promise<T>): Promise<T> {
  return refusing(audit, SsoRefusal.outsideDomains, write, (error) => error instanceof OutsideDomainsError);
}
