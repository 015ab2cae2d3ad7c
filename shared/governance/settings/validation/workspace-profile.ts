// WORKSPACE_PROFILE (contract §7.2, the specification's tables), and the
// external URL that --external-url holds fixed (§15.8).
import type { WorkspaceProfileSetting } from "../../../gen/svc/store/setting_workspace_pb.js";
import { failedPrecondition, quoted } from "../../../platform/index.ts";
import type { SaveContext } from "../setting-rules.ts";
import { canonicalDuration, checkHttpUrl, checkRange, fieldError } from "./checks.ts";

const P = "workspaceProfile";
const MIB = 1024n * 1024n;
const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

export function validateWorkspaceProfile(value: WorkspaceProfileSetting): void {
  checkHttpUrl(value.externalUrl, `${P}.externalUrl`);
  value.accessTokenDuration = canonicalDuration(value.accessTokenDuration, `${P}.accessTokenDuration`);
  value.refreshTokenDuration = canonicalDuration(value.refreshTokenDuration, `${P}.refreshTokenDuration`);
  value.inactiveSessionTimeout = canonicalDuration(value.inactiveSessionTimeout, `${P}.inactiveSessionTimeout`, { allowZero: true });
  value.maximumRoleExpiration = canonicalDuration(value.maximumRoleExpiration, `${P}.maximumRoleExpiration`, { allowZero: true });
  value.queryTimeout = canonicalDuration(value.queryTimeout, `${P}.queryTimeout`, { allowZero: true });
  value.queryHistoryRetention = canonicalDuration(value.queryHistoryRetention, `${P}.queryHistoryRetention`, { allowZero: true });
  value.notificationDeliveryRetention = canonicalDuration(value.notificationDeliveryRetention, `${P}.notificationDeliveryRetention`, { allowZero: true });
  checkRange(value.sqlResultSize, `${P}.sqlResultSize`, MIB, 1024n * MIB);
  value.domains = value.domains.map((domain, i) => {
    const normalized = domain.trim().toLowerCase();
    if (!DOMAIN.test(normalized)) throw fieldError(`${P}.domains[${i}]`, `${quoted(domain)} is not a domain name`);
    return normalized;
  });
  if (value.enforceIdentityDomain && value.domains.length === 0) throw fieldError(`${P}.enforceIdentityDomain`, "needs at least one entry in domains");
  if (value.announcement?.text && value.announcement.level === 0) throw fieldError(`${P}.announcement.level`, "is required: INFO, WARNING or CRITICAL");
  checkHttpUrl(value.announcement?.link, `${P}.announcement.link`);
  const restriction = value.passwordRestriction;
  if (restriction) {
    checkRange(restriction.minLength, `${P}.passwordRestriction.minLength`, 8, 128);
    restriction.passwordRotation = canonicalDuration(restriction.passwordRotation, `${P}.passwordRestriction.passwordRotation`, { allowZero: true });
  }
}

/** While --external-url is given, the stored external URL cannot change (contract §15.8). */
export function keepFlagExternalUrl(current: WorkspaceProfileSetting, next: WorkspaceProfileSetting, { externalUrlFlag: flag }: SaveContext): void {
  if (flag === undefined || next.externalUrl === current.externalUrl) return;
  if (next.externalUrl !== flag) throw failedPrecondition("workspaceProfile.externalUrl is set by --external-url; change the flag instead");
  next.externalUrl = current.externalUrl; // the value read back from GET, written back unchanged
}
