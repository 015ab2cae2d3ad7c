// UpdateSetting (contract §7.1): under the setting's row lock, the masked
// fields of the written payload replace the effective value's, credentials
// are sealed (and kept when the write leaves them out), the setting's own
// hooks and then the rules other capabilities add (setting-rules.ts) adjust
// the result (beforeSave), check it as a whole (validate), and, once it is
// stored, act on it in the same transaction (afterSave). The audit detail
// lists each changed field with its old and new value as clients see them
// (credentials only as flags), and what afterSave found.
import { clone, type JsonObject, type JsonValue, type Message } from "@bufbuild/protobuf";
import { reflect } from "@bufbuild/protobuf/reflect";
import type { CallAudit } from "../audit/call-audit.ts";
import { aborted, type SecretBox } from "../../platform/index.ts";
import { LIST_KEYS, type SettingKind } from "./setting-catalog.ts";
import { applyMask, parseMaskPaths, type MaskPath, type OutputOnlyPath } from "./setting-mask.ts";
import { hooksOf, type SaveContext, type SettingRules } from "./setting-rules.ts";
import { carryStoredSecrets, dropEmptySecrets, sealWrittenSecrets } from "./setting-secrets.ts";
import { lockSettingRow, saveSettingValue, type SettingRow } from "./setting.store.ts";
import { effectiveValue, storedJson } from "./setting-value.ts";

/** How the writer's form of the payload (the API's message) differs from the stored one. */
export interface PayloadView {
  /** Mask paths naming fields the writer's message marks output only (its `_set` flags among them). */
  outputOnly: OutputOnlyPath;
  /** A payload as the writer's clients see it (proto JSON, credentials only as flags), for the audit record. */
  present(value: Message): JsonObject;
}

export interface SettingWrite {
  kind: SettingKind;
  /** The written payload (a message of kind.schema) without the writer's output-only fields. */
  value: Message;
  paths: readonly string[];
  etag: string;
  view: PayloadView;
}

export interface WriteContext extends Omit<SaveContext, "tx"> {
  secrets: SecretBox;
  /** What other capabilities add to settings' writes. */
  rules: SettingRules;
}

export async function updateSetting(audit: CallAudit, context: WriteContext, write: SettingWrite): Promise<SettingRow> {
  const { kind } = write;
  const paths = parseMaskPaths(write.paths, kind.field);
  const row = await lockSettingRow(audit.tx, kind.name);
  if (write.etag && write.etag !== row.etag) throw aborted(`settings/${kind.name} changed since it was read (etag mismatch); read it again`);
  const current = effectiveValue(kind, row.value);
  const next = mergeWrite(kind, current, write.value, paths, context.secrets, write.view.outputOnly);
  const save: SaveContext = { tx: audit.tx, updater: context.updater, externalUrlFlag: context.externalUrlFlag, logger: context.logger };
  const hooks = hooksOf(kind.name, kind.hooks, context.rules);
  for (const hook of hooks) await hook.beforeSave?.(current, next, save);
  for (const hook of hooks) await hook.validate?.(next, save);
  const saved = await saveSettingValue(audit.tx, kind.name, storedJson(kind, next), context.updater);
  let found: Record<string, unknown> = {};
  for (const hook of hooks) found = { ...found, ...(await hook.afterSave?.(current, next, save)) };
  audit.resource = `settings/${kind.name}`;
  audit.detail = { changes: changedFields(write.view, kind.field.jsonName, current, next), ...found };
  return saved;
}

/**
 * The effective value after a write: the masked fields of `written` over
 * `current`, credentials sealed and carried over, and every field a
 * replaced sub-message leaves unset back at its default.
 */
export function mergeWrite(
  kind: SettingKind,
  current: Message,
  written: Message,
  paths: readonly MaskPath[],
  secrets: SecretBox,
  outputOnly?: OutputOnlyPath,
): Message {
  const incoming = clone(kind.schema, written);
  sealWrittenSecrets(reflect(kind.schema, incoming), secrets);
  const merged = clone(kind.schema, current);
  applyMask(reflect(kind.schema, merged), reflect(kind.schema, incoming), paths, kind.field, outputOnly);
  carryStoredSecrets(reflect(kind.schema, current), reflect(kind.schema, merged), LIST_KEYS);
  dropEmptySecrets(reflect(kind.schema, merged));
  return effectiveValue(kind, storedJson(kind, merged));
}

function changedFields(view: PayloadView, prefix: string, before: Message, after: Message): { field: string; old: JsonValue | null; new: JsonValue | null }[] {
  const flat = (value: Message) => flatten(view.present(value), prefix);
  const [old, now] = [flat(before), flat(after)];
  const fields = [...new Set([...old.keys(), ...now.keys()])];
  return fields.filter((f) => JSON.stringify(old.get(f)) !== JSON.stringify(now.get(f))).map((field) => ({ field, old: old.get(field) ?? null, new: now.get(field) ?? null }));
}

/** Leaf values by dotted path; lists count as leaves. */
function flatten(value: JsonObject, prefix: string, into = new Map<string, JsonValue>()): Map<string, JsonValue> {
  for (const [key, child] of Object.entries(value)) {
    const path = `${prefix}.${key}`;
    if (typeof child === "object" && child !== null && !Array.isArray(child)) flatten(child, path, into);
    else into.set(path, child);
  }
  return into;
}
