// Credentials inside setting payloads (contract §3.4, §7.1), handled from the
// descriptors (the svc.store.secret option) so every setting follows one
// rule: a secret in a write is sealed before anything else sees it; a secret
// the write leaves out keeps its stored value (list entries are matched by
// their key field); a secret written as "" is removed. What clients see of
// them is the API's concern.
import type { DescField } from "@bufbuild/protobuf";
import { isReflectMessage, type ReflectMessage } from "@bufbuild/protobuf/reflect";
import { isStoredSecret, type SecretBox } from "../../platform/index.ts";

/** Message type name → the field that identifies an entry of a list of them. */
export type ListKeys = ReadonlyMap<string, string>;

/** Calls `visit` for the message and every message inside it. */
function forEachMessage(message: ReflectMessage, visit: (message: ReflectMessage) => void): void {
  visit(message);
  for (const field of message.fields) {
    if (!message.isSet(field)) continue;
    for (const child of childMessages(message, field)) forEachMessage(child, visit);
  }
}

/** Seals every secret a write carries; "" stays, meaning "remove" until `dropEmptySecrets`. */
export function sealWrittenSecrets(message: ReflectMessage, box: SecretBox): void {
  forEachSecret(message, (m, field, value) => {
    if (value !== "") m.set(field, box.seal(value));
  });
}

/** Fills each secret the new value leaves unset from the stored value. */
export function carryStoredSecrets(stored: ReflectMessage | undefined, next: ReflectMessage, listKeys: ListKeys): void {
  for (const field of next.fields) {
    if (isStoredSecret(field)) {
      if (!next.isSet(field) && stored?.isSet(field)) next.set(field, stored.get(field));
    } else if (field.fieldKind === "message" && next.isSet(field)) {
      carryStoredSecrets(stored?.isSet(field) ? (stored.get(field) as ReflectMessage) : undefined, next.get(field) as ReflectMessage, listKeys);
    } else if (field.fieldKind === "list" && field.listKind === "message") {
      const key = listKeys.get(field.message.typeName);
      const storedItems = stored ? [...(stored.get(field) as Iterable<ReflectMessage>)] : [];
      for (const item of next.get(field) as Iterable<ReflectMessage>) {
        const match = key === undefined ? undefined : storedItems.find((s) => sameKey(s, item, key));
        carryStoredSecrets(match, item, listKeys);
      }
    } else if (field.fieldKind === "map" && field.mapKind === "message") {
      const storedMap = stored?.get(field) as ReadonlyMap<unknown, ReflectMessage> | undefined;
      for (const [key, item] of next.get(field) as ReadonlyMap<unknown, ReflectMessage>) carryStoredSecrets(storedMap?.get(key), item, listKeys);
    }
  }
}

/** Removes the secrets a write set to "". */
export function dropEmptySecrets(message: ReflectMessage): void {
  forEachSecret(message, (m, field, value) => {
    if (value === "") m.clear(field);
  });
}

/** Calls `visit` for every secret set anywhere in the message. */
function forEachSecret(message: ReflectMessage, visit: (message: ReflectMessage, field: DescField, value: string) => void): void {
  forEachMessage(message, (m) => {
    for (const field of m.fields) {
      if (isStoredSecret(field) && field.fieldKind === "scalar" && m.isSet(field)) visit(m, field, m.get(field) as string);
    }
  });
}

function childMessages(message: ReflectMessage, field: DescField): ReflectMessage[] {
  if (field.fieldKind === "message") return [message.get(field) as ReflectMessage];
  if (field.fieldKind === "list" && field.listKind === "message") return [...(message.get(field) as Iterable<ReflectMessage>)];
  if (field.fieldKind === "map" && field.mapKind === "message") return [...(message.get(field) as ReadonlyMap<unknown, ReflectMessage>).values()];
  return [];
}

function sameKey(a: ReflectMessage, b: ReflectMessage, keyField: string): boolean {
  const field = a.desc.fields.find((f) => f.name === keyField);
  if (!field) return false;
  const [x, y] = [a.get(field), b.get(field)];
  return !isReflectMessage(x) && x === y;
}
