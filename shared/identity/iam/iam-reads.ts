// What a permission decision reads from the store (contract §6.4): the
// policies of the scopes, the caller's groups and the custom roles'
// permissions. Inside a transaction they are read from it; the API's
// per-request checks read them through the access cache.
import type { CommonQueryMethods } from "slonik";
import { groupIdsOfUser } from "../group/group-member.store.ts";
import { findPolicies, findProjectPolicies, type StoredPolicy } from "./iam-policy.store.ts";
import { customRolePermissions } from "./role.store.ts";

export interface IamReads {
  /** The policies of the given scopes that exist. */
  policies(scopes: readonly string[]): Promise<readonly StoredPolicy[]>;
  /** Every project's policy. */
  projectPolicies(): Promise<readonly StoredPolicy[]>;
  groupIds(loginId: string): Promise<readonly string[]>;
  /** The stored permissions of each existing custom role among `ids`. */
  customRolePermissions(ids: readonly string[]): Promise<ReadonlyMap<string, readonly string[]>>;
}

export function storedIam(db: CommonQueryMethods): IamReads {
  return {
    policies: (scopes) => findPolicies(db, scopes),
    projectPolicies: () => findProjectPolicies(db),
    groupIds: (loginId) => groupIdsOfUser(db, loginId),
    customRolePermissions: (ids) => customRolePermissions(db, ids),
  };
}

/**
 * The reads of one call that decides more than once (a permission, then an
 * approver's roles), each made once: the same scopes' policies, a user's
 * groups and the same custom roles are read the first time they are asked.
 * For one call only — what it caches never hears of later changes.
 */
export function readOnce(reads: IamReads): IamReads {
  const answers = new Map<string, Promise<unknown>>();
  const once = <T>(key: string, read: () => Promise<T>): Promise<T> => {
    let answer = answers.get(key) as Promise<T> | undefined;
    if (!answer) answers.set(key, (answer = read()));
    return answer;
  };
  return {
    policies: (scopes) => once(`policies ${JSON.stringify(scopes)}`, () => reads.policies(scopes)),
    projectPolicies: () => once("project policies", () => reads.projectPolicies()),
    groupIds: (loginId) => once(`groups ${loginId}`, () => reads.groupIds(loginId)),
    customRolePermissions: (ids) => once(`roles ${JSON.stringify(ids)}`, () => reads.customRolePermissions(ids)),
  };
}
