// Users and groups already outside the workspace's domains when
// enforce_identity_domain is turned on, or its domains change while it is on
// (contract §7.2). They are kept as they are: neither deleted nor disabled,
// and they still sign in; only what is written from then on is checked
// (identity-domain.ts). The UpdateSetting that changes the rule reports them
// in its bb.settings.set record (`detail.outsideDomains`) and as a WARN log
// line; ListUsers' filter `outside_domains = true` lists every such user.
import type { CommonQueryMethods } from "slonik";
import { type Logger, userName } from "../../platform/index.ts";
import type { WorkspaceProfileSetting } from "../../gen/svc/store/setting_workspace_pb.js";
import { groupName } from "../group/group-name.ts";
import { identityDomainsOf, sameDomains } from "./identity-domain-rule.ts";
import { activeUsersOutside, groupsOutside } from "./identity-domain.store.ts";

/** How many names of each kind the audit record lists. */
const LISTED = 100;

/** The report for the audit detail, when the write turns the rule on or changes its domains; undefined otherwise. */
export async function reportOutsiders(
  before: WorkspaceProfileSetting,
  after: WorkspaceProfileSetting,
  tx: CommonQueryMethods,
  logger: Logger,
): Promise<Record<string, unknown> | undefined> {
  const [was, now] = [identityDomainsOf(before), identityDomainsOf(after)];
  if (!now.enforced || (was.enforced && sameDomains(was.domains, now.domains))) return undefined;
  const users = await activeUsersOutside(tx, now.domains, LISTED);
  const groups = await groupsOutside(tx, now.domains, LISTED);
  if (users.count + groups.count > 0) {
    logger.warn(
      { domains: now.domains, users: users.count, groups: groups.count },
      `${users.count} users and ${groups.count} groups have e-mail addresses outside the workspace's domains; they are kept (list the users with ListUsers filter outside_domains = true)`,
    );
  }
  return {
    outsideDomains: {
      domains: now.domains,
      userCount: users.count,
      users: users.ids.map(userName),
      groupCount: groups.count,
      groups: groups.ids.map(groupName),
    },
  };
}
