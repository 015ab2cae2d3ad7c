// Functions a read may not call, wherever they sit in its parse tree (contract
// §14.3): those whose effect a read-only transaction does not stop — on
// other sessions (pg_terminate_backend), on the server's files, logs,
// statistics and replication, on session state that outlives a statement
// (set_config, advisory and named locks) — and those that run SQL text of
// their own, which the parser never sees (query_to_xml, ts_stat, dblink).
// Names compare case-insensitively and without their schema. Functions that
// only take time (pg_sleep, SLEEP) stay allowed: the query timeout and the
// client's cancellation bound them. Writes (nextval, setval, INSERT in a
// function) are left to the read-only transaction. See
// docs/decisions/0078-sql-editor-read-only.md for which guard stops what.

const POSTGRES_NAMES = new Set([
  "pg_terminate_backend", "pg_cancel_backend", "pg_signal_backend", "pg_reload_conf", "pg_rotate_logfile",
  "pg_log_backend_memory_contexts", "set_config", "pg_notify", "pg_stat_file", "pg_create_restore_point", "pg_switch_wal",
  "pg_switch_xlog", "pg_promote", "pg_backup_start", "pg_backup_stop", "pg_start_backup", "pg_stop_backup",
  "pg_import_system_collations", "pg_truncate_visibility_map", "pg_prewarm", "pg_stat_statements_reset",
  "query_to_xml", "query_to_xml_and_xmlschema", "query_to_xmlschema", "cursor_to_xml", "cursor_to_xmlschema", "ts_stat",
  "loread", "lowrite",
]);

const POSTGRES_PREFIXES = [
  "pg_advisory_", "pg_try_advisory_", "dblink", "lo_", "pg_ls_", "pg_read_", "pg_file_", "pg_stat_reset", "pg_logical_",
  "pg_replication_", "pg_wal_replay_", "binary_upgrade_", "pg_create_", "pg_drop_", "pg_copy_",
];

const MYSQL_NAMES = new Set([
  "get_lock", "release_lock", "release_all_locks", "load_file", "benchmark", "master_pos_wait", "source_pos_wait",
  "master_gtid_wait", "wait_for_executed_gtid_set", "wait_until_sql_thread_after_gtids", "sys_eval", "sys_exec",
]);

/** Whether a PostgreSQL read may not call the function (its name without schema). */
export function deniedPostgresFunction(name: string): boolean {
  const lower = name.toLowerCase();
  return POSTGRES_NAMES.has(lower) || POSTGRES_PREFIXES.some((prefix) => lower.startsWith(prefix));
}

/** Whether a MySQL read may not call the function (its name without schema). */
export function deniedMysqlFunction(name: string): boolean {
  return MYSQL_NAMES.has(name.toLowerCase());
}
