// PATCH (RFC 7644 §3.5.2) as Okta and Microsoft Entra ID send it, applied to
// a resource in canonical form (scim-json.ts): op names in any case
// ("Replace"), a value object without a path (its keys read as paths, so
// {"name.givenName": …} works), filtered paths (`members[value eq "…"]`,
// `emails[type eq "work"].value`), and `remove` of listed values
// ({"path": "members", "value": [{"value": "…"}]}). Directories repeat
// themselves, so adding a value already there, or removing one that is not,
// changes nothing instead of failing.
import { invalidPath, invalidSyntax, noTarget } from "./scim-error.ts";
import { parseAttributePath, type AttributePath, type Comparison } from "./scim-filter.ts";
import { canonicalBody, isObject, lowerKeys, sameValue, type Json, type JsonObject } from "./scim-json.ts";

export type PatchOp = "add" | "replace" | "remove";

export interface PatchOperation {
  op: PatchOp;
  path: AttributePath | undefined;
  value: Json | undefined;
}

const OPS = new Set<string>(["add", "replace", "remove"]);

/** The operations of a PatchOp body. */
export function parsePatch(body: unknown): PatchOperation[] {
  const operations = canonicalBody(body).operations;
  if (!Array.isArray(operations) || operations.length === 0) throw invalidSyntax("Operations must be a non-empty array of operations");
  return operations.map((operation, i) => {
    if (!isObject(operation)) throw invalidSyntax(`Operations[${i}] must be an object`);
    const op = typeof operation.op === "string" ? operation.op.toLowerCase() : "";
    if (!OPS.has(op)) throw invalidSyntax(`Operations[${i}].op must be add, replace or remove, got ${JSON.stringify(operation.op ?? null)}`);
    const path = operation.path;
    if (path !== undefined && path !== null && typeof path !== "string") throw invalidPath(`Operations[${i}].path must be a string`);
    if (!path && op === "remove") throw noTarget(`Operations[${i}]: remove needs a path`);
    if (!path && !isObject(operation.value)) throw invalidSyntax(`Operations[${i}]: an ${op} without a path needs an object value`);
    if (path && op !== "remove" && operation.value === undefined) throw invalidSyntax(`Operations[${i}]: ${op} needs a value`);
    return { op: op as PatchOp, path: path ? parseAttributePath(path, invalidPath) : undefined, value: operation.value };
  });
}

/** The resource after the operations, in order; `resource` itself is left as it was. */
export function applyPatch(resource: JsonObject, operations: readonly PatchOperation[]): JsonObject {
  const result = structuredClone(resource);
  for (const operation of operations) {
    if (operation.path) applyAt(result, operation.op, operation.path, operation.value);
    else for (const [key, value] of Object.entries(operation.value as JsonObject)) applyAt(result, operation.op, parseAttributePath(key, invalidPath), value);
  }
  return result;
}

function applyAt(resource: JsonObject, op: PatchOp, path: AttributePath, value: Json | undefined): void {
  if (path.where) return applyToElements(resource, op, path as AttributePath & { where: Comparison[] }, value);
  const { attribute, subAttribute } = path;
  if (subAttribute) return applyToSubAttribute(resource, op, attribute, subAttribute, value);
  const current = resource[attribute];
  if (op === "remove") {
    if (Array.isArray(current) && value !== undefined) resource[attribute] = current.filter((item) => !listed(item, value));
    else delete resource[attribute];
  } else if (Array.isArray(current) && op === "add") {
    resource[attribute] = withAdded(current, value!);
  } else if (isObject(current) && isObject(value)) {
    resource[attribute] = { ...current, ...(lowerKeys(value) as JsonObject) };
  } else {
    resource[attribute] = lowerKeys(value!);
  }
}

/** `name.givenName`, or `emails.value` on every element of a list (a new element when it is empty). */
function applyToSubAttribute(resource: JsonObject, op: PatchOp, attribute: string, sub: string, value: Json | undefined): void {
  const current = resource[attribute];
  if (Array.isArray(current)) {
    const elements = current.filter(isObject);
    if (op !== "remove" && elements.length === 0) resource[attribute] = [{ [sub]: lowerKeys(value!) }];
    for (const element of elements) setOrDelete(element, op, sub, value);
    return;
  }
  const target = isObject(current) ? current : {};
  setOrDelete(target, op, sub, value);
  resource[attribute] = target;
}

/** `members[value eq "…"]`, `emails[type eq "work"].value`: the matching elements; none → a new one (add, replace). */
function applyToElements(resource: JsonObject, op: PatchOp, path: AttributePath & { where: Comparison[] }, value: Json | undefined): void {
  const elements = Array.isArray(resource[path.attribute]) ? (resource[path.attribute] as Json[]) : [];
  const matches = (element: Json) => isObject(element) && path.where.every((c) => sameValue(element[c.attribute], c.value));
  const { subAttribute } = path;
  if (op === "remove" && !subAttribute) {
    resource[path.attribute] = elements.filter((element) => !matches(element));
    return;
  }
  const matched = elements.filter(matches) as JsonObject[];
  if (matched.length === 0 && op !== "remove") {
    const seed: JsonObject = Object.fromEntries(path.where.filter((c) => !c.attribute.includes(".")).map((c) => [c.attribute, c.value]));
    const element = subAttribute ? { ...seed, [subAttribute]: lowerKeys(value!) } : { ...seed, ...(isObject(value) ? (lowerKeys(value) as JsonObject) : {}) };
    resource[path.attribute] = [...elements, element];
    return;
  }
  for (const element of matched) {
    if (subAttribute) setOrDelete(element, op, subAttribute, value);
    else if (isObject(value)) Object.assign(element, lowerKeys(value));
  }
}

function setOrDelete(target: JsonObject, op: PatchOp, key: string, value: Json | undefined): void {
  if (op === "remove") delete target[key];
  else target[key] = lowerKeys(value!);
}

/** The list with the values not yet in it appended; a new primary value takes the mark from the others (RFC 7643 §2.4). */
function withAdded(list: Json[], value: Json): Json[] {
  const added = (Array.isArray(value) ? value : [value]).map(lowerKeys);
  const fresh = added.filter((item, i) => !list.some((have) => sameItem(have, item)) && added.findIndex((other) => sameItem(other, item)) === i);
  const kept = fresh.some(isPrimary) ? list.map((item) => (isPrimary(item) ? { ...(item as JsonObject), primary: false } : item)) : list;
  return [...kept, ...fresh];
}

function isPrimary(item: Json): boolean {
  return isObject(item) && sameValue(item.primary, true);
}

/** True when `item` is among `value` (one value or a list of them). */
function listed(item: Json, value: Json): boolean {
  return (Array.isArray(value) ? value : [value]).some((v) => sameItem(item, lowerKeys(v)));
}

/** Elements of a list are the same when their `value` is, else when they are equal. */
function sameItem(a: Json, b: Json): boolean {
  if (isObject(a) && isObject(b) && a.value !== undefined) return sameValue(a.value, b.value);
  return sameValue(a, b) || JSON.stringify(a) === JSON.stringify(b);
}
