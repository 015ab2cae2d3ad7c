// The tables and columns of one MySQL schema as a script's DDL would leave
// them, without running it (a MySQL dry run never runs DDL, contract §10.3):
// each DDL statement is checked against the model (ALTER/DROP/TRUNCATE/RENAME
// of a missing table, a missing or duplicate column, CREATE of an existing
// table) and then applied to it. Names compare case-insensitively; objects of
// other schemas are not checked.
import type { Connection } from "mysql2/promise";
import { Cursor, type TableRef } from "./my-token-cursor.ts";
import { isIdentifier, mentionedNames, type Token } from "./my-tokens.ts";

export interface NameProblem {
  message: string;
  /** 0-based offset in the statement. */
  offset: number;
}

/** Columns by lower-cased name; undefined when the model cannot know them (views, CREATE … SELECT). */
type Columns = Set<string> | undefined;

const OBJECT_WORDS = new Set(["TABLE", "VIEW", "INDEX", "DATABASE", "SCHEMA", "FUNCTION", "PROCEDURE", "TRIGGER", "EVENT", "USER", "ROLE", "SEQUENCE", "SERVER", "TABLESPACE", "AGGREGATE", "PACKAGE"]);
const NOT_A_COLUMN = new Set(["INDEX", "KEY", "CONSTRAINT", "PRIMARY", "UNIQUE", "FOREIGN", "FULLTEXT", "SPATIAL", "CHECK", "PARTITION", "PERIOD", "SYSTEM", "VECTOR", "LIKE"]);

export class SchemaModel {
  private readonly database: string;
  private readonly tables: Map<string, Columns>;
  /** Tables that earlier DDL of the script created, changed, renamed or dropped. */
  private readonly changed = new Set<string>();

  private constructor(database: string, tables: Map<string, Columns>) {
    this.database = database;
    this.tables = tables;
  }

  static async load(connection: Connection, database: string): Promise<SchemaModel> {
    const [rows] = await connection.query(
      "select table_name as tableName, column_name as columnName from information_schema.columns where table_schema = ?",
      [database],
    );
    const tables = new Map<string, Columns>();
    for (const { tableName, columnName } of rows as { tableName: string; columnName: string }[]) {
      const key = tableName.toLowerCase();
      if (!tables.has(key)) tables.set(key, new Set());
      tables.get(key)!.add(columnName.toLowerCase());
    }
    return new SchemaModel(database, tables);
  }

  /** Tables the statement mentions that earlier DDL of the script changed. */
  changedTablesIn(tokens: Token[]): string[] {
    return [...mentionedNames(tokens)].filter((name) => this.changed.has(name));
  }

  /**
   * Whether a DML statement's failure on the schema before the script (an unknown column or table)
   * would still happen on the schema the script's earlier DDL leaves.
   */
  stillFails(message: string, tokens: Token[]): boolean {
    const table = /^Table '(?:[^'.]*\.)?([^']+)' doesn't exist/.exec(message)?.[1];
    if (table !== undefined) return !this.tables.has(table.toLowerCase());
    const column = /^Unknown column '(?:[^']*\.)?([^'.]+)'/.exec(message)?.[1]?.toLowerCase();
    if (column === undefined) return false;
    const tables = [...mentionedNames(tokens)].filter((name) => this.tables.has(name)).map((name) => this.tables.get(name));
    return tables.every((columns) => columns !== undefined && !columns.has(column));
  }

  /** Checks a DDL statement's names, then applies it; the first problem found, if any. */
  apply(tokens: Token[]): NameProblem | undefined {
    const c = new Cursor(tokens);
    if (c.accept("CREATE")) return this.create(c);
    if (c.accept("ALTER")) {
      c.accept("ONLINE");
      c.accept("IGNORE");
      return c.accept("TABLE") ? this.alterTable(c) : undefined;
    }
    if (c.accept("DROP")) {
      c.accept("TEMPORARY");
      if (c.accept("TABLE") || c.accept("TABLES")) return this.dropRelations(c, "Unknown table");
      if (c.accept("VIEW")) return this.dropRelations(c, "Unknown VIEW");
      if (c.accept("INDEX")) return this.indexTable(c, true);
      return undefined;
    }
    if (c.accept("TRUNCATE")) {
      c.accept("TABLE");
      return this.requireTable(c.tableRef());
    }
    if (c.accept("RENAME") && (c.accept("TABLE") || c.accept("TABLES"))) return this.renameTables(c);
    return undefined;
  }

  private create(c: Cursor): NameProblem | undefined {
    const orReplace = c.accept("OR", "REPLACE");
    while (c.peek() && !OBJECT_WORDS.has(c.word())) c.skip();
    if (c.accept("TABLE")) return this.createTable(c, orReplace);
    if (c.accept("VIEW")) {
      const ifNotExists = c.accept("IF", "NOT", "EXISTS");
      return this.createRelation(c.tableRef(), undefined, orReplace || ifNotExists);
    }
    if (c.accept("INDEX")) return this.indexTable(c, false);
    return undefined;
  }

  private createTable(c: Cursor, orReplace: boolean): NameProblem | undefined {
    const ifNotExists = c.accept("IF", "NOT", "EXISTS");
    const ref = c.tableRef();
    if (c.peek()?.value === "(" && c.peek(1)?.upper === "LIKE") c.skip();
    if (c.accept("LIKE")) {
      const source = c.tableRef();
      const missing = this.requireTable(source);
      if (missing) return missing;
      return this.createRelation(ref, source && this.isLocal(source) ? copy(this.tables.get(source.key)) : undefined, orReplace || ifNotExists);
    }
    const columns = c.peek()?.value === "(" ? columnsOf(c.parenthesized()) : undefined;
    const fromQuery = c.rest().some((t) => t.upper === "SELECT");
    return this.createRelation(ref, fromQuery ? undefined : columns, orReplace || ifNotExists);
  }

  private createRelation(ref: TableRef | undefined, columns: Columns, mayExist: boolean): NameProblem | undefined {
    if (!ref || !this.isLocal(ref)) return undefined;
    if (this.tables.has(ref.key) && !mayExist) return { message: `Table '${ref.name}' already exists`, offset: ref.offset };
    if (!this.tables.has(ref.key) || !mayExist) this.tables.set(ref.key, columns);
    this.changed.add(ref.key);
    return undefined;
  }

  private alterTable(c: Cursor): NameProblem | undefined {
    const ref = c.tableRef();
    const missing = this.requireTable(ref);
    if (missing || !ref || !this.isLocal(ref)) return missing;
    this.changed.add(ref.key);
    for (const spec of c.commaSeparated()) {
      const problem = this.alterSpec(ref, new Cursor(spec));
      if (problem) return problem;
    }
    return undefined;
  }

  private alterSpec(table: TableRef, s: Cursor): NameProblem | undefined {
    const columns = this.tables.get(table.key);
    const verb = s.word();
    s.skip();
    if (verb === "RENAME" && !s.accept("COLUMN") && !["INDEX", "KEY"].includes(s.word())) {
      if (!s.accept("TO")) s.accept("AS");
      return this.moveTable(table, s.tableRef());
    }
    if (!["ADD", "DROP", "MODIFY", "CHANGE", "ALTER", "RENAME"].includes(verb)) return undefined;
    s.accept("COLUMN");
    const guarded = verb === "ADD" ? s.accept("IF", "NOT", "EXISTS") : s.accept("IF", "EXISTS");
    if (NOT_A_COLUMN.has(s.word()) || s.peek()?.value === "(") return undefined;
    const column = s.peek();
    if (!isIdentifier(column) || !columns) return undefined;
    const key = column.value.toLowerCase();
    if (verb === "ADD") {
      if (columns.has(key) && !guarded) return { message: `Duplicate column name '${column.value}'`, offset: column.offset };
      columns.add(key);
      return undefined;
    }
    if (!columns.has(key)) {
      if (guarded) return undefined;
      const message = verb === "DROP" ? `Can't DROP COLUMN \`${column.value}\`; check that it exists` : `Unknown column '${column.value}' in '${table.name}'`;
      return { message, offset: column.offset };
    }
    if (verb === "DROP") columns.delete(key);
    s.skip();
    if (verb === "RENAME") s.accept("TO");
    const renamed = s.peek();
    if ((verb === "CHANGE" || verb === "RENAME") && isIdentifier(renamed)) {
      columns.delete(key);
      columns.add(renamed.value.toLowerCase());
    }
    return undefined;
  }

  private dropRelations(c: Cursor, unknown: string): NameProblem | undefined {
    const ifExists = c.accept("IF", "EXISTS");
    do {
      const ref = c.tableRef();
      if (!ref || !this.isLocal(ref)) continue;
      if (!this.tables.has(ref.key) && !ifExists) return { message: `${unknown} '${this.database}.${ref.name}'`, offset: ref.offset };
      this.tables.delete(ref.key);
      this.changed.add(ref.key);
    } while (c.acceptSymbol(","));
    return undefined;
  }

  /** CREATE INDEX … ON t / DROP INDEX … ON t: the table must exist. */
  private indexTable(c: Cursor, dropping: boolean): NameProblem | undefined {
    c.accept(...(dropping ? ["IF", "EXISTS"] : ["IF", "NOT", "EXISTS"]));
    while (c.peek() && c.word() !== "ON") c.skip();
    c.accept("ON");
    const ref = c.tableRef();
    if (ref && this.isLocal(ref)) this.changed.add(ref.key);
    return this.requireTable(ref);
  }

  private renameTables(c: Cursor): NameProblem | undefined {
    do {
      const from = c.tableRef();
      c.accept("TO");
      const problem = this.requireTable(from) ?? (from ? this.moveTable(from, c.tableRef()) : undefined);
      if (problem) return problem;
    } while (c.acceptSymbol(","));
    return undefined;
  }

  private moveTable(from: TableRef, to: TableRef | undefined): NameProblem | undefined {
    if (!to || !this.isLocal(from)) return undefined;
    if (this.isLocal(to) && this.tables.has(to.key)) return { message: `Table '${to.name}' already exists`, offset: to.offset };
    const columns = this.tables.get(from.key);
    this.tables.delete(from.key);
    this.changed.add(from.key);
    if (this.isLocal(to)) {
      this.tables.set(to.key, columns);
      this.changed.add(to.key);
    }
    return undefined;
  }

  private requireTable(ref: TableRef | undefined): NameProblem | undefined {
    if (!ref || !this.isLocal(ref) || this.tables.has(ref.key)) return undefined;
    return { message: `Table '${this.database}.${ref.name}' doesn't exist`, offset: ref.offset };
  }

  private isLocal(ref: TableRef): boolean {
    return ref.schema === undefined || ref.schema.toLowerCase() === this.database.toLowerCase();
  }
}

/** The column names of a CREATE TABLE definition list (its items that are not keys or constraints). */
function columnsOf(items: Token[][]): Set<string> {
  return new Set(items.flatMap((item) => (isIdentifier(item[0]) && !NOT_A_COLUMN.has(item[0].upper) ? [item[0].value.toLowerCase()] : [])));
}

function copy(columns: Columns): Columns {
  return columns && new Set(columns);
}
