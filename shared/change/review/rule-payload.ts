// The payload fields of review rules (contract §10.4): each field's default
// and its check, from which a rule's payload type, its defaults and the
// validation of a configured payload (a JSON object) follow.

export interface FieldSpec<T> {
  defaultValue: T;
  /** The value when acceptable, else a problem ("must be …"). */
  read(value: unknown): { value: T } | { problem: string };
}

export type Fields = Record<string, FieldSpec<unknown>>;
export type PayloadOf<F extends Fields> = { [K in keyof F]: F[K] extends FieldSpec<infer T> ? T : never };

export function integerField(defaultValue: number, min = 1): FieldSpec<number> {
  return {
    defaultValue,
    read: (value) =>
      typeof value === "number" && Number.isSafeInteger(value) && value >= min ? { value } : { problem: `must be an integer ≥ ${min}, got ${JSON.stringify(value)}` },
  };
}

/** A regular expression (JavaScript syntax); `{table}` stands for the table name where the rule says so. */
export function patternField(defaultValue: string): FieldSpec<string> {
  return {
    defaultValue,
    read: (value) => {
      if (typeof value !== "string" || value === "") return { problem: `must be a non-empty regular expression, got ${JSON.stringify(value)}` };
      try {
        new RegExp(value.replaceAll("{table}", "t"));
        return { value };
      } catch (error) {
        return { problem: `is not a valid regular expression: ${(error as Error).message}` };
      }
    },
  };
}

export function namesField(defaultValue: string[]): FieldSpec<string[]> {
  return {
    defaultValue,
    read: (value) =>
      Array.isArray(value) && value.every((v) => typeof v === "string" && v.trim() !== "")
        ? { value: value.map((v: string) => v.trim()) }
        : { problem: `must be a list of non-empty strings, got ${JSON.stringify(value)}` },
  };
}

export function choiceField<T extends string>(defaultValue: T, choices: readonly T[]): FieldSpec<T> {
  return {
    defaultValue,
    read: (value) => (choices.includes(value as T) ? { value: value as T } : { problem: `must be one of ${choices.join(", ")}, got ${JSON.stringify(value)}` }),
  };
}

export function defaultPayload<F extends Fields>(fields: F): PayloadOf<F> {
  return Object.fromEntries(Object.entries(fields).map(([name, spec]) => [name, spec.defaultValue])) as PayloadOf<F>;
}

/** The payload with defaults for absent fields, or the first problem (naming the field as `payload.<name>`). */
export function readPayload<F extends Fields>(fields: F, payload: Record<string, unknown> | undefined): { payload: PayloadOf<F> } | { problem: string } {
  const result: Record<string, unknown> = {};
  for (const name of Object.keys(payload ?? {})) {
    if (!(name in fields)) {
      const known = Object.keys(fields);
      return { problem: `payload.${name} is not a field of this rule (${known.length ? `fields: ${known.join(", ")}` : "it takes none"})` };
    }
  }
  for (const [name, spec] of Object.entries(fields)) {
    const value = payload?.[name];
    if (value === undefined || value === null) {
      result[name] = spec.defaultValue;
      continue;
    }
    const read = spec.read(value);
    if ("problem" in read) return { problem: `payload.${name} ${read.problem}` };
    result[name] = read.value;
  }
  return { payload: result as PayloadOf<F> };
}

const compiledPatterns = new Map<string, RegExp>();

/** A pattern field's regular expression (compiled once per process). */
export function compiledPattern(pattern: string): RegExp {
  let regex = compiledPatterns.get(pattern);
  if (!regex) {
    regex = new RegExp(pattern);
    compiledPatterns.set(pattern, regex);
  }
  return regex;
}
