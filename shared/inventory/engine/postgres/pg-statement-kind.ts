// What a PostgreSQL statement is, for EXPLAIN and the dry run: DML, transaction
// control, a statement that cannot run inside a transaction block, a schema
// change, a setting, or anything else; and, for executing a change script,
// whether it forbids a transaction block. Read from the statement's parse tree;
// a statement the parser refuses falls back to its first keyword (and the
// server then reports the syntax error when the statement is tried).
import type { Node } from "@pgsql/types";
import { leadingWords } from "../leading-words.ts";
import { parsePostgres } from "./pg-parser.ts";

export type PgStatementKind =
  | { kind: "dml" }
  /** BEGIN, START TRANSACTION, COMMIT, ROLLBACK: the dry run's own transaction stands in for them. */
  | { kind: "transaction-control" }
  /** Not run by a dry run: refused inside a transaction block (CREATE INDEX CONCURRENTLY, VACUUM, …) or COPY. */
  | { kind: "not-dry-runnable"; reason: string; node: PgNode }
  /** DDL that later statements of the script may need (EXPLAIN applies it first). */
  | { kind: "schema-change" }
  | { kind: "setting"; name: string }
  | { kind: "other" };

/** One parse-tree node: its type name and fields. */
export interface PgNode {
  type: string;
  fields: Record<string, unknown>;
}

const DML_NODES = new Set(["SelectStmt", "InsertStmt", "UpdateStmt", "DeleteStmt", "MergeStmt"]);
const DML_WORDS = new Set(["SELECT", "INSERT", "UPDATE", "DELETE", "WITH", "MERGE", "VALUES", "TABLE"]);
const SCHEMA_CHANGE_NODES = new Set([
  "CreateStmt", "AlterTableStmt", "IndexStmt", "DropStmt", "ViewStmt", "CreateSeqStmt", "AlterSeqStmt", "CreateFunctionStmt",
  "CreateSchemaStmt", "RenameStmt", "CommentStmt", "CreateEnumStmt", "AlterEnumStmt", "CompositeTypeStmt", "CreateDomainStmt",
  "AlterDomainStmt", "CreateExtensionStmt", "AlterObjectSchemaStmt",
]);
const ENDS_TRANSACTION = new Set(["TRANS_STMT_BEGIN", "TRANS_STMT_START", "TRANS_STMT_COMMIT", "TRANS_STMT_ROLLBACK"]);
const PREPARED_TRANSACTION: Record<string, string> = {
  TRANS_STMT_PREPARE: "PREPARE TRANSACTION",
  TRANS_STMT_COMMIT_PREPARED: "COMMIT PREPARED",
  TRANS_STMT_ROLLBACK_PREPARED: "ROLLBACK PREPARED",
};
const ALWAYS_OUTSIDE: Record<string, string> = {
  CreatedbStmt: "CREATE DATABASE",
  DropdbStmt: "DROP DATABASE",
  AlterSystemStmt: "ALTER SYSTEM",
  CreateTableSpaceStmt: "CREATE TABLESPACE",
  DropTableSpaceStmt: "DROP TABLESPACE",
  CreateSubscriptionStmt: "CREATE SUBSCRIPTION",
  AlterSubscriptionStmt: "ALTER SUBSCRIPTION",
  DropSubscriptionStmt: "DROP SUBSCRIPTION",
};
const IN_TRANSACTION_ONLY = "cannot run inside a transaction block";

export async function pgStatementKind(text: string): Promise<PgStatementKind> {
  const node = await parseOne(text);
  if (!node) return DML_WORDS.has(leadingWords(text, 1)[0] ?? "") ? { kind: "dml" } : { kind: "other" };
  if (DML_NODES.has(node.type)) return { kind: "dml" };
  if (node.type === "CopyStmt") return { kind: "not-dry-runnable", reason: "COPY moves data through files or the client connection", node };
  const label = outsideTransactionLabel(node);
  if (label) return { kind: "not-dry-runnable", reason: `${label} ${IN_TRANSACTION_ONLY}`, node };
  if (node.type === "TransactionStmt" && ENDS_TRANSACTION.has(String(node.fields.kind))) return { kind: "transaction-control" };
  // A plain index cannot change what later statements mean, and building one is costly.
  if (node.type === "IndexStmt" && !node.fields.unique) return { kind: "other" };
  if (SCHEMA_CHANGE_NODES.has(node.type)) return { kind: "schema-change" };
  if (node.type === "VariableSetStmt") return { kind: "setting", name: String(node.fields.name ?? "") };
  return { kind: "other" };
}

/** How a statement of a change script runs (contract §12.4). */
export type PgExecutionKind =
  /** Refused inside a transaction block: the script then runs statement by statement in autocommit. */
  | { kind: "outside-transaction"; label: string }
  /** BEGIN, START TRANSACTION, COMMIT, ROLLBACK: in a transactional run, the run's own transaction stands in for them. */
  | { kind: "transaction-control" }
  | { kind: "other" };

/** Before PostgreSQL 12, ALTER TYPE … ADD VALUE cannot run inside a transaction block. */
const ADD_ENUM_VALUE_IN_TRANSACTION_SINCE = 120_000;

/** `serverVersion` answers the server's server_version_num (asked only for a statement whose kind depends on it). */
export async function pgExecutionKind(text: string, serverVersion: () => Promise<number>): Promise<PgExecutionKind> {
  const node = await parseOne(text);
  if (!node) return { kind: "other" };
  const label = outsideTransactionLabel(node);
  if (label) return { kind: "outside-transaction", label };
  if (node.type === "AlterEnumStmt" && node.fields.newVal && (await serverVersion()) < ADD_ENUM_VALUE_IN_TRANSACTION_SINCE) {
    return { kind: "outside-transaction", label: "ALTER TYPE … ADD VALUE (before PostgreSQL 12)" };
  }
  if (node.type === "TransactionStmt" && ENDS_TRANSACTION.has(String(node.fields.kind))) return { kind: "transaction-control" };
  return { kind: "other" };
}

function outsideTransactionLabel({ type, fields }: PgNode): string | undefined {
  if (ALWAYS_OUTSIDE[type]) return ALWAYS_OUTSIDE[type];
  if (type === "TransactionStmt") return PREPARED_TRANSACTION[String(fields.kind)];
  if (type === "IndexStmt" && fields.concurrent) return "CREATE INDEX CONCURRENTLY";
  if (type === "DropStmt" && fields.concurrent) return "DROP INDEX CONCURRENTLY";
  if (type === "VacuumStmt" && fields.is_vacuumcmd) return "VACUUM";
  if (type === "ClusterStmt" && !fields.relation) return "CLUSTER without a table";
  if (type === "ReindexStmt") return reindexLabel(fields);
  if (type === "AlterDatabaseStmt" && hasOption(fields.options, "tablespace")) return "ALTER DATABASE SET TABLESPACE";
  if (type === "DiscardStmt" && fields.target === "DISCARD_ALL") return "DISCARD ALL";
  if (type === "AlterTableStmt" && detachesConcurrently(fields.cmds)) return "DETACH PARTITION CONCURRENTLY";
  return undefined;
}

function detachesConcurrently(cmds: unknown): boolean {
  type Cmd = { AlterTableCmd?: { subtype?: string; def?: { PartitionCmd?: { concurrent?: boolean } } } };
  return Array.isArray(cmds) && cmds.some((c: Cmd) => c.AlterTableCmd?.subtype === "AT_DetachPartition" && c.AlterTableCmd.def?.PartitionCmd?.concurrent === true);
}

function reindexLabel(fields: Record<string, unknown>): string | undefined {
  if (hasOption(fields.params, "concurrently")) return "REINDEX CONCURRENTLY";
  const kind = String(fields.kind);
  if (kind === "REINDEX_OBJECT_SCHEMA" || kind === "REINDEX_OBJECT_SYSTEM" || kind === "REINDEX_OBJECT_DATABASE") {
    return `REINDEX ${kind.slice("REINDEX_OBJECT_".length)}`;
  }
  return undefined;
}

function hasOption(options: unknown, name: string): boolean {
  return Array.isArray(options) && options.some((option: { DefElem?: { defname?: string } }) => option.DefElem?.defname === name);
}

async function parseOne(text: string): Promise<PgNode | undefined> {
  const parsed = await parsePostgres(text);
  const stmt = "trees" in parsed ? parsed.trees[0]?.stmt : undefined;
  return stmt ? nodeOf(stmt) : undefined;
}

function nodeOf(node: Node): PgNode {
  const [type, fields] = Object.entries(node)[0] as [string, Record<string, unknown>];
  return { type, fields: fields ?? {} };
}
