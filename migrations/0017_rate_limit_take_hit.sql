-- One request against a sliding-window rate limit in one statement (§4.5):
-- called outside any transaction, it commits on its own and holds the key's
-- lock only for that statement. Under the lock, a second statement (with a
-- snapshot of its own, which sees every hit committed before the lock was
-- granted) forgets the key's old hits, counts the rest and records one more
-- when fewer than hit_limit. Answers the hits in the window before this
-- request, the oldest of them, the clock and whether this one was recorded.
create function rate_limit_take_hit(hit_bucket text, hit_key text, hit_limit integer, window_secs double precision, lock_class integer)
returns table (hits integer, oldest timestamptz, now timestamptz, counted boolean)
language plpgsql volatile as $$
begin
  perform pg_advisory_xact_lock(lock_class, hashtext(hit_bucket || ':' || hit_key));
  return query
    with clock as (select clock_timestamp() as now, clock_timestamp() - make_interval(secs => window_secs) as since),
    expired as (
      delete from rate_limit_hit h using clock
      where h.bucket = hit_bucket and h.key = hit_key and h.hit_time <= clock.since),
    recent as (
      select count(*)::integer as hits, min(h.hit_time) as oldest
      from rate_limit_hit h, clock
      where h.bucket = hit_bucket and h.key = hit_key and h.hit_time > clock.since),
    hit as (
      insert into rate_limit_hit (bucket, key, hit_time)
      select hit_bucket, hit_key, clock.now from clock, recent where recent.hits < hit_limit
      returning 1)
    select recent.hits, recent.oldest, clock.now, exists (select 1 from hit) from recent, clock;
end
$$;
