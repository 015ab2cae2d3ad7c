// The API's per-request reads of who is calling and what they may do —
// session tokens (contract §4.3) and IAM (§6.4) — kept in each process and
// dropped by change notices. Triggers (migration 0024) announce on
// access_changed a session family revoked or limited ("family:<uuid>"), a
// principal deleted, renamed, due a password change or signed in
// ("principal:<id>"), and any write of policies, group membership or custom
// roles ("iam"). The notice cache's rules (bypassed while its channel is
// down, entries at most MAX_AGE_MS old) bound staleness when a notice is
// late. Decisions made inside a transaction read the transaction instead
// (storedIam).
import type { CommonQueryMethods } from "slonik";
import { createNoticeCache, type Logger } from "../platform/index.ts";
import { findSessionToken, lastSessionUse, type SessionTokenRow, touchSessionToken } from "./auth/session.store.ts";
import type { SessionTokens } from "./auth/sessions.ts";
import type { StoredPolicy } from "./iam/iam-policy.store.ts";
import { type IamReads, storedIam } from "./iam/iam-reads.ts";
import { firstAdminPending } from "./user/user.store.ts";

/** What a sign-in page learns before anyone signs in (GetActuatorInfo). */
export interface WorkspaceFacts {
  /** The first administrator has still to sign in or change the bootstrap password. */
  needAdminSetup: boolean;
  /** The latest use of any session, to the minute (uses are recorded once a minute per sign-in). */
  lastActiveTime: Date | undefined;
}

export interface AccessCache {
  tokens: SessionTokens;
  iam: IamReads;
  workspaceFacts(): Promise<WorkspaceFacts>;
  close(): Promise<void>;
}

const ACCESS_CHANNEL = "access_changed";
const MAX_AGE_MS = 5_000;

export function createAccessCache(url: string, db: CommonQueryMethods, logger: Logger): AccessCache {
  const cache = createNoticeCache({
    url,
    channel: ACCESS_CHANNEL,
    applicationName: "svc access",
    logger,
    maxAgeMs: MAX_AGE_MS,
    onNotice, // notices come after the parts below exist
    lostMessage: "access change channel lost; reading sessions and IAM from the store until it is back",
  });
  // Strict: a revocation acts on the very next request, on every server.
  const sessions = cache.part<SessionTokenRow | undefined>({ keep: (row) => row !== undefined, strict: true });
  const policies = cache.part<readonly StoredPolicy[]>({ strict: true });
  const groups = cache.part<readonly string[]>({ strict: true });
  const roles = cache.part<ReadonlyMap<string, readonly string[]>>({ strict: true });
  const iamParts = [policies, groups, roles];
  const facts = cache.part<WorkspaceFacts>();

  function onNotice(payload: string) {
    const [kind, id] = payload.split(":", 2);
    if (kind === "iam") for (const part of iamParts) part.drop();
    else if (kind === "family") sessions.drop((_, row) => row?.familyId === id);
    else if (kind === "principal") {
      sessions.drop((_, row) => String(row?.principalId) === id);
      facts.drop();
    }
  }

  const stored = storedIam(db);
  const keyOf = (hash: Buffer) => hash.toString("base64");
  return {
    tokens: {
      find: (hash) => sessions.get(keyOf(hash), () => findSessionToken(db, hash)),
      async touch(hash) {
        await touchSessionToken(db, hash);
        const key = keyOf(hash);
        sessions.drop((cached) => cached === key); // read again with its new last use
      },
    },
    iam: {
      policies: (scopes) => policies.get(scopes.join(" "), () => stored.policies(scopes)),
      projectPolicies: () => policies.get("projects/*", () => stored.projectPolicies()),
      groupIds: (loginId) => groups.get(loginId, () => stored.groupIds(loginId)),
      customRolePermissions: (ids) => roles.get(ids.join(" "), () => stored.customRolePermissions(ids)),
    },
    workspaceFacts: () =>
      facts.get("", async () => {
        const [needAdminSetup, lastActiveTime] = await Promise.all([firstAdminPending(db), lastSessionUse(db)]);
        return { needAdminSetup, lastActiveTime };
      }),
    close: () => cache.close(),
  };
}
