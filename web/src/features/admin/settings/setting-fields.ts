// A setting's form described as fields at paths of its payload
// ("passwordRestriction.minLength"): the values a form gives, the paths that
// differ from what was read (the update mask), and the payload to send with
// only those values. Credentials are input-only (contract §7.4): an empty
// input keeps the stored one, and the form shows the <field>Set flag instead.

export interface Choice {
  value: number;
  label: string;
}

export type SettingField =
  | { path: string; label: string; hint?: string; kind: "text" | "url" | "email" | "int" | "int64" | "checkbox" }
  | { path: string; label: string; hint?: string; kind: "select"; choices: readonly Choice[] }
  /** `setFlag`: the output-only path that says whether one is stored. */
  | { path: string; label: string; hint?: string; kind: "secret"; setFlag: string };

type Plain = Record<string, unknown>;

export function valueAt(payload: unknown, path: string): unknown {
  return path.split(".").reduce<unknown>((node, key) => (node as Plain | undefined)?.[key], payload);
}

/** The value a field's input holds in `form`; undefined for an empty credential (kept as stored). */
export function inputValue(field: SettingField, form: FormData): unknown {
  const raw = form.get(field.path);
  const text = typeof raw === "string" ? raw.trim() : "";
  switch (field.kind) {
    case "checkbox":
      return raw !== null;
    case "int":
    case "select":
      return Number(text || 0);
    case "int64":
      return BigInt(/^\d+$/.test(text) ? text : "0");
    case "secret":
      return text === "" ? undefined : text;
    default:
      return text;
  }
}

/** Unset and empty read alike, so a field left as it was is not sent. */
function comparable(value: unknown): string {
  return value === undefined || value === null || value === false || value === 0 || value === 0n ? "" : String(value);
}

/** The fields `form` changes, with their new values, by path. */
export function changedValues(fields: readonly SettingField[], current: unknown, form: FormData): Map<string, unknown> {
  const changes = new Map<string, unknown>();
  for (const field of fields) {
    const next = inputValue(field, form);
    if (field.kind === "secret" ? next !== undefined : comparable(next) !== comparable(valueAt(current, field.path))) {
      changes.set(field.path, next);
    }
  }
  return changes;
}

/** A payload's init holding only `changes`, nested along their paths. */
export function payloadInit(changes: ReadonlyMap<string, unknown>): Plain {
  const init: Plain = {};
  for (const [path, value] of changes) {
    const keys = path.split(".");
    const last = keys.pop()!;
    let node = init;
    for (const key of keys) node = (node[key] ??= {}) as Plain;
    node[last] = value;
  }
  return init;
}
