// Checks a statement the dry run cannot run (contract §10.3): its syntax was
// already accepted by the parser; here the objects it names are looked up in
// the dry run's transaction (so tables created earlier in the script count).
import type { RangeVar } from "@pgsql/types";
import type pg from "pg";
import type { PgNode } from "./pg-statement-kind.ts";
import type { StatementFailure } from "./pg-transaction.ts";

export async function checkWithoutRunning(client: pg.Client, { type, fields }: PgNode): Promise<StatementFailure | undefined> {
  switch (type) {
    case "IndexStmt":
    case "CopyStmt":
    case "ReindexStmt":
      return missingRelation(client, fields.relation as RangeVar | undefined);
    case "VacuumStmt":
      return firstFailure(relationsOf(fields.rels).map((relation) => () => missingRelation(client, relation)));
    case "DropStmt":
      if (fields.missing_ok) return undefined;
      return firstFailure(namesOf(fields.objects).map((name) => () => missingIndex(client, name)));
    case "CreatedbStmt":
      return (await databaseExists(client, String(fields.dbname))) ? failure(`database "${String(fields.dbname)}" already exists`) : undefined;
    case "DropdbStmt":
      if (fields.missing_ok || (await databaseExists(client, String(fields.dbname)))) return undefined;
      return failure(`database "${String(fields.dbname)}" does not exist`);
    default:
      return undefined;
  }
}

async function missingRelation(client: pg.Client, relation: RangeVar | undefined): Promise<StatementFailure | undefined> {
  if (!relation?.relname) return undefined;
  const parts = relation.schemaname ? [relation.schemaname, relation.relname] : [relation.relname];
  if (await relationExists(client, parts)) return undefined;
  return failure(`relation "${parts.join(".")}" does not exist`, relation.location);
}

async function missingIndex(client: pg.Client, parts: string[]): Promise<StatementFailure | undefined> {
  return (await relationExists(client, parts)) ? undefined : failure(`index "${parts.join(".")}" does not exist`);
}

async function relationExists(client: pg.Client, parts: string[]): Promise<boolean> {
  const name = parts.map((p) => `"${p.replaceAll('"', '""')}"`).join(".");
  return (await client.query("select to_regclass($1) is not null as found", [name])).rows[0].found === true;
}

async function databaseExists(client: pg.Client, name: string): Promise<boolean> {
  return (await client.query("select exists (select 1 from pg_database where datname = $1) as found", [name])).rows[0].found === true;
}

async function firstFailure(checks: (() => Promise<StatementFailure | undefined>)[]): Promise<StatementFailure | undefined> {
  for (const check of checks) {
    const found = await check();
    if (found) return found;
  }
  return undefined;
}

function relationsOf(rels: unknown): RangeVar[] {
  return Array.isArray(rels) ? rels.flatMap((r: { VacuumRelation?: { relation?: RangeVar } }) => r.VacuumRelation?.relation ?? []) : [];
}

function namesOf(objects: unknown): string[][] {
  if (!Array.isArray(objects)) return [];
  return objects.map((o: { List?: { items?: { String?: { sval?: string } }[] } }) => (o.List?.items ?? []).map((i) => i.String?.sval ?? ""));
}

function failure(message: string, offset?: number): StatementFailure {
  return { message, offset };
}
