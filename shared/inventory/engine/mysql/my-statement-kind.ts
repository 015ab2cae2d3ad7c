// What a MySQL statement is, by its first keywords: DML that reads or writes,
// DDL, transaction control, or anything else.
import { leadingWords } from "../leading-words.ts";

export type MyStatementKind = "dml-read" | "dml-write" | "ddl" | "transaction-control" | "other";

const READS = new Set(["SELECT", "WITH", "TABLE", "VALUES"]);
const WRITES = new Set(["INSERT", "UPDATE", "DELETE", "REPLACE"]);
const DDL = new Set(["CREATE", "ALTER", "DROP", "RENAME", "TRUNCATE"]);
const TRANSACTION_CONTROL = new Set(["BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE"]);

export function myStatementKind(text: string): MyStatementKind {
  const [first = "", second = ""] = leadingWords(text, 2);
  if (READS.has(first)) return "dml-read";
  if (WRITES.has(first)) return "dml-write";
  if (DDL.has(first)) return "ddl";
  // BEGIN NOT ATOMIC opens a MariaDB compound statement, not a transaction.
  if (TRANSACTION_CONTROL.has(first) && !(first === "BEGIN" && second === "NOT")) return "transaction-control";
  if (first === "START" && second === "TRANSACTION") return "transaction-control";
  return "other";
}

export function isDml(kind: MyStatementKind): boolean {
  return kind === "dml-read" || kind === "dml-write";
}
