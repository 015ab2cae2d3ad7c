-- EMERGENCY_PAUSE always has its row (an empty payload reads as the
-- default, off): a task run's claim reads the pause under a share lock on
-- that row, which the write switching the pause locks for update first, so
-- the two are ordered even before the pause was ever written (§12.7).
insert into setting (name, value) values ('EMERGENCY_PAUSE', '{}') on conflict (name) do nothing;
