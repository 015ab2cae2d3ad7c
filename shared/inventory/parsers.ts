// inventory's light surface: its SQL parsers alone, for worker threads (the
// change review's MySQL parser pool) that must not load the whole capability
// with its drivers and stores (about 0.8 s and 90 MiB a thread). Everything
// else enters through index.ts.
export { type MysqlTree, parseMysql } from "./engine/mysql/my-grammars.ts";
export { parsePostgres, type PostgresTree } from "./engine/postgres/pg-parser.ts";
