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
/**
 * Class of the two-key session locks a worker holds on a task run for as
 * long as it handles it (second key: the run id, wrapped to int4), on a
 * connection of its own: a RUNNING run whose lock is free lost its worker
 * (contract §12.4, §12.6).
 */
export const TASK_RUN_LOCK_CLASS = 0x5f5d;
/** Class of the two-key session locks on a target database (second key: hashtext of "instance/database"): one change at a time (§12.4). */
export const TARGET_DATABASE_LOCK_CLASS = 0x5f5e;
/** Class of the two-key session locks each job pool holds while it lives (second key: hashtext of its pool id), so its locked jobs can be told orphaned. */
export const JOB_POOL_LOCK_CLASS = 0x5f5f;
/** Class of the two-key transaction locks that order the claims of one rollout's runs (second key: hashtext of "project/rollout"), for its parallel limit. */
export const ROLLOUT_SLOT_LOCK_CLASS = 0x5f60;
