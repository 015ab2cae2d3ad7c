// Clean-ups of what outlives its retention (the query history, the
// notification delivery log): the rows older than the cutoff go a batch per
// statement, so that no delete holds many locks or runs long, until a batch
// comes back short.

/** Deletes up to `limit` rows created before `cutoff`; answers how many went. */
export type DeleteBatch = (cutoff: Date, limit: number) => Promise<number>;

/**
 * Deletes what was created more than `retentionMs` before `now`, `batch`
 * rows at a time (nothing when the retention is undefined: kept for ever);
 * answers how many rows went.
 */
export async function deleteBeyondRetention(retentionMs: number | undefined, now: Date, batch: number, deleteBatch: DeleteBatch): Promise<number> {
  if (retentionMs === undefined) return 0;
  const cutoff = new Date(now.getTime() - retentionMs);
  let deleted = 0;
  let count: number;
  do {
    count = await deleteBatch(cutoff, batch);
    deleted += count;
  } while (count === batch);
  return deleted;
}
