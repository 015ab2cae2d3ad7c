// Deterministic orderings for metadata and DDL: plain code-unit comparison
// (never the server's collation) and a dependency order with name tie-breaks.

export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

export function sortByName<T extends { name: string }>(items: T[]): T[] {
  return items.sort((a, b) => compareText(a.name, b.name));
}

/**
 * Orders keys so that each comes after the keys it depends on, choosing the
 * smallest ready key first; keys in a cycle follow in name order at the end.
 */
export function dependencyOrder(keys: string[], dependsOn: Map<string, Set<string>>): string[] {
  const remaining = new Set(keys);
  const ordered: string[] = [];
  const sorted = [...keys].sort(compareText);
  while (remaining.size > 0) {
    const ready = sorted.find((key) => remaining.has(key) && ![...(dependsOn.get(key) ?? [])].some((d) => d !== key && remaining.has(d)));
    const next = ready ?? sorted.find((key) => remaining.has(key))!;
    ordered.push(next);
    remaining.delete(next);
  }
  return ordered;
}
