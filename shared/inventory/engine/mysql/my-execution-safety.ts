// Whether the MySQL dry run may run a writing DML statement inside a
// rolled-back transaction (contract §10.3: it never changes the target). A
// rollback only undoes changes to transactional tables, so the statement runs
// only when everything it could reach is known to be rolled back: it names no
// other schema, no view, sequence or non-transactional table, no table with
// triggers and no stored function. Otherwise it is only EXPLAINed.
import type { Connection } from "mysql2/promise";
import { mentionedNames, qualifiers, type Token } from "./my-tokens.ts";

const TRANSACTIONAL_ENGINES = new Set(["innodb", "rocksdb", "tokudb"]);

export class ExecutionSafety {
  private readonly otherSchemas: Set<string>;
  /** Lower-cased name → why running a statement that names it could leave a change behind. */
  private readonly hazards: Map<string, string>;

  private constructor(otherSchemas: Set<string>, hazards: Map<string, string>) {
    this.otherSchemas = otherSchemas;
    this.hazards = hazards;
  }

  static async load(connection: Connection, database: string): Promise<ExecutionSafety> {
    const rows = async <T>(text: string, params: unknown[] = []) => (await connection.query(text, params))[0] as T[];
    const schemas = await rows<{ name: string }>("select schema_name as name from information_schema.schemata");
    const otherSchemas = new Set(schemas.map((s) => s.name.toLowerCase()).filter((name) => name !== database.toLowerCase()));
    const hazards = new Map<string, string>();
    for (const t of await rows<{ name: string; type: string; engine: string | null }>(
      "select table_name as name, table_type as type, engine from information_schema.tables where table_schema = ?",
      [database],
    )) {
      if (t.type !== "BASE TABLE") hazards.set(t.name.toLowerCase(), `${t.name} is a ${t.type.toLowerCase()}`);
      else if (!TRANSACTIONAL_ENGINES.has((t.engine ?? "").toLowerCase())) hazards.set(t.name.toLowerCase(), `table ${t.name} uses the non-transactional engine ${t.engine}`);
    }
    for (const t of await rows<{ name: string }>("select distinct event_object_table as name from information_schema.triggers where trigger_schema = ?", [database])) {
      hazards.set(t.name.toLowerCase(), `table ${t.name} has triggers`);
    }
    for (const f of await rows<{ name: string }>("select routine_name as name from information_schema.routines where routine_schema = ? and routine_type = 'FUNCTION'", [database])) {
      hazards.set(f.name.toLowerCase(), `it may call the stored function ${f.name}`);
    }
    return new ExecutionSafety(otherSchemas, hazards);
  }

  /** Why the statement must not run, or undefined when a rollback undoes all it can do. */
  reasonNotToRun(tokens: Token[]): string | undefined {
    const schema = [...qualifiers(tokens)].find((q) => this.otherSchemas.has(q));
    if (schema) return `it names the schema ${schema}`;
    const hazard = [...mentionedNames(tokens)].find((name) => this.hazards.has(name));
    return hazard ? this.hazards.get(hazard) : undefined;
  }
}
