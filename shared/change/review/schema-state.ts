// What the review knows about the target's tables at each statement of a
// script: the synced metadata, changed by the statements before it (tables
// created, dropped and renamed, indexes created and dropped), plus the
// session settings that matter to the rules (lock_timeout, search_path).
// "An existing table" (contract §10.4) is one in the metadata that the script
// has not (re)created.
import type { DatabaseMetadata, Engine, TableMetadata } from "../../inventory/index.ts";
import type { StatementFacts, TableRef } from "./facts.ts";

export interface IndexShape {
  name?: string;
  columns: string[];
  primary: boolean;
}

interface TableState {
  existing: boolean;
  metadata?: TableMetadata;
  indexes: IndexShape[];
}

export class SchemaState {
  private readonly synced = new Map<string, TableMetadata>();
  private readonly changed = new Map<string, TableState | "dropped">();
  private defaultSchema = "public";
  /** Whether a SET lock_timeout (other than 0 or DEFAULT) came before. */
  lockTimeoutSet = false;
  private readonly engine: Engine;

  constructor(engine: Engine, metadata: DatabaseMetadata | undefined) {
    this.engine = engine;
    for (const schema of metadata?.schemas ?? []) {
      for (const table of schema.tables) this.synced.set(this.keyOf(schema.name, table.name), table);
    }
  }

  /** Whether a name compares without regard to case (MySQL). */
  get foldsCase(): boolean {
    return this.engine === "MYSQL";
  }

  /** A name as the engine compares it. */
  fold(name: string): string {
    return this.foldsCase ? name.toLowerCase() : name;
  }

  /** The schema an unqualified name refers to at this point of the script ("" on MySQL). */
  schemaOf(table: TableRef): string {
    return this.foldsCase ? "" : (table.schema ?? this.defaultSchema);
  }

  isExisting(table: TableRef): boolean {
    return this.state(table)?.existing ?? false;
  }

  /** The synced metadata of an existing table. */
  existingMetadata(table: TableRef): TableMetadata | undefined {
    const state = this.state(table);
    return state?.existing ? state.metadata : undefined;
  }

  /** The table's indexes as the statements so far left them (the primary key's included). */
  indexesOf(table: TableRef): readonly IndexShape[] {
    return this.state(table)?.indexes ?? [];
  }

  /** Applies a statement's changes, after the rules have seen the statement. */
  apply(facts: StatementFacts): void {
    if (facts.createTable) this.changed.set(this.key(facts.createTable.table), { existing: false, indexes: [] });
    for (const table of facts.droppedTables) this.changed.set(this.key(table), "dropped");
    for (const { from, to } of facts.renamedTables) {
      const state = this.state(from);
      this.changed.set(this.key(from), "dropped");
      this.changed.set(this.key(to), state ?? { existing: false, indexes: [] });
    }
    for (const index of facts.createdIndexes) this.writable(index.table).indexes.push({ name: index.name, columns: index.columns, primary: index.primary });
    for (const dropped of facts.droppedIndexes) this.dropIndex(dropped);
    if (facts.setting?.name === "lock_timeout") this.lockTimeoutSet = !["default", "0", "'0'", "0s", "0ms"].includes(facts.setting.value);
    if (facts.setting?.name === "search_path") this.defaultSchema = firstSchema(facts.setting.value) ?? this.defaultSchema;
  }

  private state(table: TableRef): TableState | undefined {
    const key = this.key(table);
    const changed = this.changed.get(key);
    if (changed === "dropped") return undefined;
    if (changed) return changed;
    const metadata = this.synced.get(key);
    if (!metadata) return undefined;
    const state: TableState = { existing: true, metadata, indexes: metadata.indexes.map((i) => ({ name: i.name, columns: i.columns, primary: i.primary })) };
    this.changed.set(key, state);
    return state;
  }

  /** The table's state, created (as a table the metadata does not know) when missing. */
  private writable(table: TableRef): TableState {
    const state = this.state(table) ?? { existing: false, indexes: [] };
    this.changed.set(this.key(table), state);
    return state;
  }

  private dropIndex(dropped: StatementFacts["droppedIndexes"][number]): void {
    const matches = (index: IndexShape) =>
      (index.name !== undefined && this.fold(index.name) === this.fold(dropped.name)) || (dropped.name === "PRIMARY" && index.primary && this.foldsCase);
    const candidates = dropped.table ? [dropped.table] : this.tablesInSchema(dropped.schema ?? this.defaultSchema);
    for (const table of candidates) {
      const state = this.state(table);
      if (state?.indexes.some(matches)) {
        state.indexes = state.indexes.filter((index) => !matches(index));
        return;
      }
    }
  }

  private tablesInSchema(schema: string): TableRef[] {
    const prefix = this.keyOf(schema, "");
    const keys = new Set([...this.synced.keys(), ...this.changed.keys()].filter((key) => key.startsWith(prefix)));
    return [...keys].map((key) => ({ schema, name: key.slice(prefix.length) }));
  }

  /** The table's identity at this point of the script: its schema resolved, its case folded on MySQL. */
  key(table: TableRef): string {
    return this.keyOf(this.schemaOf(table), table.name);
  }

  /** MySQL metadata has one schema named ""; a database qualifier on a table is not compared. */
  private keyOf(schema: string, name: string): string {
    return this.fold(`${this.foldsCase ? "" : schema}\u0000${name}`);
  }
}

function firstSchema(searchPath: string): string | undefined {
  return searchPath
    .split(",")
    .map((part) => part.trim().replace(/^"(.*)"$/, "$1"))
    .find((part) => part && part !== "$user");
}
