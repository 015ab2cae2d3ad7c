// PostgreSQL advisory lock keys, all in one place so that none collide.
// Values are arbitrary constants inside the int8 range.

/** Held while migrations run, so replicas starting together migrate once. */
export const MIGRATION_LOCK = 0x5f5c_0001n;
/** Held by the leader for as long as it leads (contract §15.7). */
export const LEADER_LOCK = 0x5f5c_0002n;
/**
 * Class of the two-key transaction locks that serialise one rate-limit
 * counter (second key: hash of bucket and key). Two-key locks never collide
 * with the one-key locks above.
 */
export const RATE_LIMIT_LOCK_CLASS = 0x5f5c;
/** Held by the transaction that creates the first administrator. */
export const BOOTSTRAP_LOCK = 0x5f5c_0003n;
