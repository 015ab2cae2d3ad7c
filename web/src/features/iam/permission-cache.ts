// What the caller may do, asked of the server (WorkspaceService.
// TestIamPermissions, decision 0116) and kept for a short while: the pages of
// one screen ask about the same resources, and a grant or revocation shows
// within a minute, or at once after the console's own IAM writes (forget).

/** A permission of the catalogue (contract §6.1): bb.<resource>.<verb>. */
export type Permission = `bb.${string}.${string}`;

/** Asks the server which of `permissions` the caller holds on `resource`. */
export type AskServer = (resource: string, permissions: Permission[]) => Promise<string[]>;

export interface PermissionCache {
  /** The ones of `permissions` the caller holds on `resource`; one call for those not known yet. */
  held(resource: string, permissions: readonly Permission[]): Promise<Set<Permission>>;
  /** Drops everything known: after a change of IAM, or of who is signed in. */
  forget(): void;
}

const FRESH_MS = 60_000;

export function createPermissionCache(ask: AskServer, now: () => number = Date.now): PermissionCache {
  // resource → permission → the answer (shared while in flight) and when it was asked.
  let known = new Map<string, Map<Permission, { answer: Promise<boolean>; at: number }>>();
  return {
    async held(resource, permissions) {
      let perResource = known.get(resource);
      if (!perResource) known.set(resource, (perResource = new Map()));
      const entries = perResource;
      const stale = [...new Set(permissions)].filter((p) => {
        const entry = entries.get(p);
        return !entry || now() - entry.at > FRESH_MS;
      });
      if (stale.length > 0) {
        const reply = ask(resource, stale).then((granted) => new Set(granted));
        const at = now();
        for (const p of stale) {
          const answer = reply.then((granted) => granted.has(p));
          // A refusal is not remembered: the next page asks again.
          answer.catch(() => entries.get(p)?.answer === answer && entries.delete(p));
          entries.set(p, { answer, at });
        }
      }
      const answers = await Promise.all(permissions.map(async (p) => [p, await entries.get(p)!.answer] as const));
      return new Set(answers.filter(([, yes]) => yes).map(([p]) => p));
    },
    forget() {
      known = new Map();
    },
  };
}
