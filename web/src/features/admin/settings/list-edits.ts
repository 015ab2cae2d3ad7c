// The edits of an ordered list a settings page holds as a draft (webhooks,
// approval rules and their steps, environments, windows): each returns the
// new list, leaving the one given untouched.

export interface ListEdits<Row> {
  /** Merges `change` into an entry (an object). */
  change(index: number, change: Partial<Row>): void;
  replace(index: number, row: Row): void;
  remove(index: number): void;
  /** Moves an entry one place up (-1) or down (+1); nothing at either end. */
  move(index: number, by: -1 | 1): void;
  add(row: Row): void;
}

export function listEdits<Row>(rows: readonly Row[], set: (rows: Row[]) => void): ListEdits<Row> {
  return {
    change: (index, change) => set(rows.map((row, i) => (i === index ? { ...row, ...change } : row))),
    replace: (index, next) => set(rows.map((row, i) => (i === index ? next : row))),
    remove: (index) => set(rows.filter((_, i) => i !== index)),
    move: (index, by) => {
      const to = index + by;
      if (to < 0 || to >= rows.length) return;
      const next = [...rows];
      [next[index], next[to]] = [next[to]!, next[index]!];
      set(next);
    },
    add: (row) => set([...rows, row]),
  };
}
