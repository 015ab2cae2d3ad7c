// Holding every written e-mail of a user or a group to the workspace's
// domains while enforce_identity_domain is on (contract §7.2). The shared
// functions that create and change users and groups call these checks
// (new-user.ts, user-profile.ts, group/groups.ts), so every path through them
// is held to the rule: sign-up, CreateUser, UpdateUser, single sign-on,
// CreateGroup, UpdateGroup and directory sync alike. Users and groups that
// already exist are not checked again; they are reported when the rule
// changes (identity-domain-report.ts).
//
// Service accounts have no e-mail domain and are exempt. An end user without
// an e-mail is judged by its login id when that is an address, and refused
// otherwise. A group's e-mail is optional (contract §5.2): a group without
// one is allowed, its members being held to the rule as users.
import type { CommonQueryMethods } from "slonik";
import { DomainError } from "../../platform/index.ts";
import { readSetting, storedSettingsForShare } from "../../governance/index.ts";
import { identityAddress, identityDomainsOf, withinDomains, type IdentityDomains } from "./identity-domain-rule.ts";
import type { UserRow } from "./user.store.ts";

/** A refusal by the domains (failed_precondition); single sign-on records it as a refused sign-in. */
export class OutsideDomainsError extends DomainError {
  constructor(message: string, domains: readonly string[]) {
    super("failed_precondition", `${message}: ${domains.join(", ")}`, { details: { allowedDomains: [...domains] } });
  }
}

/** Refuses a user about to be created or given a new e-mail whose address is outside the enforced domains. */
export async function checkUserDomain(tx: CommonQueryMethods, user: Pick<UserRow, "loginId" | "email" | "type">): Promise<void> {
  if (user.type === "SERVICE_ACCOUNT") return;
  const rule = await readIdentityDomains(tx);
  if (!rule.enforced) return;
  const address = identityAddress(user);
  if (!address) throw new OutsideDomainsError(`user "${user.loginId}" has no e-mail address, and the workspace admits only e-mail addresses of its domains`, rule.domains);
  if (!withinDomains(address, rule.domains)) {
    throw new OutsideDomainsError(`${user.email ? "e-mail" : "login id"} "${address}" is outside the workspace's domains`, rule.domains);
  }
}

/** Refuses a group e-mail about to be written that is outside the enforced domains; a group without one passes. */
export async function checkGroupDomain(tx: CommonQueryMethods, email: string): Promise<void> {
  if (!email) return;
  const rule = await readIdentityDomains(tx);
  if (rule.enforced && !withinDomains(email, rule.domains)) {
    throw new OutsideDomainsError(`group e-mail "${email}" is outside the workspace's domains`, rule.domains);
  }
}

/**
 * The rule as stored, read in the writing transaction under a share lock on
 * WORKSPACE_PROFILE: a concurrent change of the rule waits for the write to
 * commit (and then reports it if it is outside), or the write waits for the
 * change and is checked against it. Never the per-process cache, which may
 * be a moment late.
 */
async function readIdentityDomains(tx: CommonQueryMethods): Promise<IdentityDomains> {
  return identityDomainsOf(await readSetting(storedSettingsForShare(tx), "WORKSPACE_PROFILE"));
}
