// The workspace's e-mail domains as a rule (WORKSPACE_PROFILE.domains and
// enforce_identity_domain, contract §7.2), apart from the store: the address
// a user is judged by, and whether an address belongs to the domains. A
// domain matches exactly, ignoring case: a subdomain (eu.example.com) is a
// domain of its own and must be listed, as in the reference system.
// identity-domain.store.ts states the same rule in SQL.
import type { WorkspaceProfileSetting } from "../../gen/svc/store/setting_workspace_pb.js";
import { workspaceDomains } from "../../governance/index.ts";
import { isEmailAddress } from "../../platform/index.ts";

export interface IdentityDomains {
  enforced: boolean;
  /** Lower-case, as listed. */
  domains: readonly string[];
}

export function identityDomainsOf(profile: WorkspaceProfileSetting): IdentityDomains {
  return { enforced: profile.enforceIdentityDomain ?? false, domains: workspaceDomains(profile) };
}

/** True when the address's domain (after its last "@") is one of `domains`. */
export function withinDomains(address: string, domains: readonly string[]): boolean {
  const at = address.lastIndexOf("@");
  return at >= 0 && domains.includes(address.slice(at + 1).toLowerCase());
}

/**
 * The address an end user is judged by: its e-mail, else its login id when
 * that is an address (providers often sign users in by e-mail); "" when it
 * has neither.
 */
export function identityAddress(user: { loginId: string; email: string }): string {
  if (user.email) return user.email.toLowerCase();
  return isEmailAddress(user.loginId) ? user.loginId.toLowerCase() : "";
}

/** True when both lists hold the same domains, in any order. */
export function sameDomains(a: readonly string[], b: readonly string[]): boolean {
  const set = new Set(a);
  return set.size === new Set(b).size && b.every((domain) => set.has(domain));
}
