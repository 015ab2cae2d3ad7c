-- The ERROR results of each plan check run, kept beside the whole list, so
-- that a task run's start gate (contract §12.2: plan checks must pass when
-- the project requires it) reads a short list instead of every result of a
-- plan with hundreds of targets.

alter table plan_check_run
  add column error_results jsonb not null
  generated always as (jsonb_path_query_array(results, '$[*] ? (@.status == "ERROR")')) stored;
