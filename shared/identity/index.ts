// The identity capability's public surface: what other capabilities and the
// processes use. Everything else under shared/identity/ is private to it.
export { type AccessCache, createAccessCache, type WorkspaceFacts } from "./access-cache.ts";
export { authenticate } from "./auth/authenticate.ts";
export { emailCodeLogin } from "./auth/email-code-login.ts";
export { sendEmailCode } from "./auth/email-code.ts";
export type { LoginResult } from "./auth/first-step.ts";
export { activeLock, activeLocks, unlock } from "./auth/lockout.ts";
export { refusalStatus } from "./auth/login-refusal.ts";
export { secondFactorLogin } from "./auth/mfa-login.ts";
export { passwordLogin } from "./auth/password-login.ts";
export { requestPasswordReset, resetPassword } from "./auth/password-reset.ts";
export { PrincipalRateLimiter } from "./auth/principal-rate-limit.ts";
export { SharedPrincipalRateLimiter } from "./auth/principal-rate-limit-shared.ts";
export type { Principal, Restriction } from "./auth/principal.ts";
export { LOGIN_RATE_LIMIT } from "./auth/rate-limit.ts";
export { deleteSpentSignInState } from "./auth/sign-in-state-cleanup.ts";
export { endSession, type IssuedSession, refreshSession, sessionPolicyOf, type SessionTokens } from "./auth/sessions.ts";
export { listGroupPage } from "./group/group-list.ts";
export { groupIdsOfUser, groupIdsOfUsers } from "./group/group-member.store.ts";
export { groupName } from "./group/group-name.ts";
export { createGroup, deleteGroup, getGroup, type GroupDraft, type GroupView, updateGroup } from "./group/groups.ts";
export {
  type AccessDecision,
  boundRoles,
  decideAccess,
  hasPermission,
  hiddenScope,
  permissionRequired,
  projectsWithBinding,
  requirePermission,
  WORKSPACE,
} from "./iam/authorize.ts";
export { isBindingActive } from "./iam/binding-condition.ts";
export { createCustomRole, deleteCustomRole, updateCustomRole } from "./iam/custom-roles.ts";
export { grantRoles } from "./iam/grant-roles.ts";
export { findPolicies, type StoredPolicy } from "./iam/iam-policy.store.ts";
export { type IamReads, readOnce, storedIam } from "./iam/iam-reads.ts";
export { type IamSubject, userMember } from "./iam/members.ts";
export { isPermission, type Permission, permissionScope } from "./iam/permissions.ts";
export { type BindingInput, findCanonicalRole } from "./iam/policy-validation.ts";
export { listRoles } from "./iam/role-list.ts";
export { type Contact, roleHolders } from "./iam/role-holders.ts";
export { getRole, mayApprove, parseRoleName, type RoleInfo, roleName } from "./iam/roles.ts";
export { setIamPolicy } from "./iam/set-iam-policy.ts";
export type { ScimCall, ScimStore } from "./scim/scim-audit.ts";
export { ScimError, type ScimType } from "./scim/scim-error.ts";
export { createScimGroup, deleteScimGroup, getScimGroup, patchScimGroup, replaceScimGroup, searchScimGroups } from "./scim/scim-groups.ts";
export type { JsonObject } from "./scim/scim-json.ts";
export { listResponse, parseListQuery, parseProjection, type QueryParameters } from "./scim/scim-list.ts";
export { resourceTypes, schemas, SCIM_SCHEMA, serviceProviderConfig } from "./scim/scim-schemas.ts";
export { directoryAccess } from "./scim/scim-token.ts";
export { createScimUser, deleteScimUser, getScimUser, patchScimUser, replaceScimUser, searchScimUsers } from "./scim/scim-users.ts";
export { identitySettingRules } from "./setting-rules.ts";
export {
  createIdentityProvider,
  deleteIdentityProvider,
  getIdp,
  idpName,
  listIdentityProviders,
  parseIdpName,
  updateIdentityProvider,
} from "./sso/identity-providers.ts";
export type { ConfigDraft, FieldMapping } from "./sso/idp-config.ts";
export { testIdentityProvider } from "./sso/idp-test.ts";
export type { IdpRow } from "./sso/idp.store.ts";
export { oidcSignIn, samlSignIn, type SsoSignedIn, startSso } from "./sso/sso-login.ts";
export { callbackUrl } from "./sso/sso-urls.ts";
export { bootstrapWorkspace } from "./user/bootstrap.ts";
export { createUser } from "./user/create-user.ts";
export { resetMfa } from "./user/mfa-reset.ts";
export { passwordChangeDue } from "./user/password-rotation.ts";
export { resetMfaLocally, resetPasswordLocally, unlockLocally } from "./user/recovery.ts";
export { updateUser } from "./user/update-user.ts";
export { listUsers } from "./user/user-list.store.ts";
export { deleteUser, undeleteUser } from "./user/user-state.ts";
export { contactsOf, findUserById, findUserByLoginId, type UserRow } from "./user/user.store.ts";
