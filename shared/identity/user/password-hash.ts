// Password hashes: argon2id at or above the OWASP minimum (m ≥ 19 MiB, t ≥ 2,
// p = 1; contract §4.2). A hash made with weaker parameters is replaced on
// the next successful sign-in.
import argon2 from "argon2";

export const HASH_PARAMETERS = { type: argon2.argon2id, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

// Verified when a login id has no password, so that an unknown login id costs
// the same time as a wrong password (no user enumeration by timing).
const DECOY_HASH = argon2.hash("decoy password that matches nothing", HASH_PARAMETERS);

export function hashPassword(password: string): Promise<string> {
  return argon2.hash(password, HASH_PARAMETERS);
}

/** True when the password matches; a missing hash costs one decoy verification and fails. */
export async function verifyPassword(hash: string | null | undefined, password: string): Promise<boolean> {
  if (!hash) {
    await argon2.verify(await DECOY_HASH, password);
    return false;
  }
  try {
    return await argon2.verify(hash, password);
  } catch {
    return false; // not an argon2 hash
  }
}

export function needsRehash(hash: string): boolean {
  return argon2.needsRehash(hash, HASH_PARAMETERS);
}
