// Column types in one spelling for both engines, so that a rule's type list
// ("int", "json", "serial") and the metadata's printed types ("integer",
// "character varying(20)", "int(11) unsigned") compare with what a statement
// writes.

const ALIASES: Record<string, string> = {
  integer: "int",
  int4: "int",
  int8: "bigint",
  int2: "smallint",
  bool: "boolean",
  "character varying": "varchar",
  character: "char",
  bpchar: "char",
  float8: "double",
  "double precision": "double",
  float4: "real",
  numeric: "decimal",
  dec: "decimal",
  "timestamp without time zone": "timestamp",
  "timestamp with time zone": "timestamptz",
  "time without time zone": "time",
  "time with time zone": "timetz",
  serial4: "serial",
  serial8: "bigserial",
  serial2: "smallserial",
};

/** Integer types whose MySQL display width (int(11)) is not part of the type. */
const INTEGERS = new Set(["tinyint", "smallint", "mediumint", "int", "bigint"]);

/** The canonical name of a type name: lower case, aliases folded ("int4" → "int"). */
export function canonicalTypeName(name: string): string {
  const lower = name.trim().toLowerCase().replace(/\s+/g, " ");
  return ALIASES[lower] ?? lower;
}

/** A full type in canonical form: name, arguments (not an integer's display width), attributes (not SIGNED, the default). */
export function canonicalType(name: string, args: readonly (string | number)[] = [], attributes: readonly string[] = []): string {
  const base = canonicalTypeName(name);
  const withArgs = args.length && !INTEGERS.has(base) ? `${base}(${args.join(",")})` : base;
  return [withArgs, ...attributes.map((a) => a.toLowerCase()).filter((a) => a !== "signed")].join(" ");
}

/** A type as the engine prints it ("character varying(20)", "int(10) unsigned") in canonical form. */
export function canonicalPrintedType(printed: string): string {
  const match = /^([^(]*)\(([^)]*)\)\s*(.*)$/.exec(printed.trim());
  if (!match) return canonicalType(printed);
  const attributes = match[3] ? match[3].split(/\s+/) : [];
  return canonicalType(match[1]!, match[2]!.split(",").map((a) => a.trim()), attributes);
}
