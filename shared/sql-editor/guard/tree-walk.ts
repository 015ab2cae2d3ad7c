// Both parsers answer a statement as a tree of plain objects and arrays; the
// guard looks at every object in it.

type Node = Record<string, unknown>;

/** The first answer `check` gives for an object anywhere in the tree (a node, then what it holds). */
export function firstInTree(tree: unknown, check: (node: Node) => string | undefined): string | undefined {
  if (Array.isArray(tree)) {
    for (const item of tree) {
      const found = firstInTree(item, check);
      if (found) return found;
    }
    return undefined;
  }
  if (tree === null || typeof tree !== "object") return undefined;
  return check(tree as Node) ?? firstInTree(Object.values(tree), check);
}
