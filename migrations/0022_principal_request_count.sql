-- Requests per signed-in user (contract §15.6), counted for every API
-- replica together: per principal and minute (floor of epoch ms / 60000), the
-- requests the replicas have reserved. A replica reserves a block of requests
-- at a time and spends it without asking again, so the store sees one
-- statement per block, not one per request (decision 0071).
create table principal_request_count (
  principal text not null,
  minute bigint not null,
  requests integer not null,
  primary key (principal, minute)
);

-- Reserves up to block_size requests of one principal in one statement:
-- under the principal's transaction lock it forgets the principal's minutes
-- older than the previous one, estimates the sliding minute as
-- ceil(previous × the share of the previous minute still in the window) +
-- current (as shared/identity/auth/sliding-window.ts does), and counts the
-- room left, up to block_size, as reserved. Writes nothing when there is no
-- room. Answers what it granted, the two minutes' counts after it, and how
-- far into the current minute at_time (the store's clock) is.
create function principal_request_reserve(who text, request_limit integer, block_size integer, lock_class integer, at_time timestamptz default clock_timestamp())
returns table (granted integer, previous_requests integer, current_requests integer, elapsed_ms double precision)
language plpgsql volatile as $$
declare
  at_ms constant numeric := extract(epoch from at_time) * 1000;
  this_minute constant bigint := floor(at_ms / 60000);
  elapsed constant numeric := at_ms - this_minute * 60000;
  before_count integer;
  now_count integer;
  room integer;
  reserved integer;
begin
  perform pg_advisory_xact_lock(lock_class, hashtext('principal:' || who));
  delete from principal_request_count c where c.principal = who and c.minute < this_minute - 1;
  select coalesce(sum(c.requests) filter (where c.minute = this_minute - 1), 0),
         coalesce(sum(c.requests) filter (where c.minute = this_minute), 0)
    into before_count, now_count
    from principal_request_count c where c.principal = who;
  room := request_limit - ceil(before_count * (60000 - elapsed) / 60000)::integer - now_count;
  reserved := least(greatest(room, 0), block_size);
  if reserved > 0 then
    insert into principal_request_count as c (principal, minute, requests) values (who, this_minute, reserved)
    on conflict (principal, minute) do update set requests = c.requests + excluded.requests;
  end if;
  return query select reserved, before_count, now_count + reserved, elapsed::double precision;
end
$$;
