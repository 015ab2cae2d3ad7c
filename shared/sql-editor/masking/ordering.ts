// What a GROUP BY or ORDER BY item reads, on either engine: an ordinal is the
// select list's entry at that place, and a bare name may be an output's alias
// (`select email as e … order by e`) as well as a column of the tables — both
// are kept, so a masked column cannot be sorted on under another name. A
// DISTINCT ON item reads the same way.
import type { ColumnSource } from "./lineage.ts";

export interface Output {
  /** The name the result calls it (its alias, or the column's own name). */
  name: string | undefined;
  source: ColumnSource | "constant";
  /** A `*` or `t.*`: the entries after it no longer sit at their ordinal. */
  star?: boolean;
}

/** A SELECT is a set operation's member: "compares" when the operation compares members' rows (UNION, INTERSECT, EXCEPT — all but UNION ALL), as DISTINCT does. */
export type SetOp = "keeps" | "compares";

export type OrderingItem = { ordinal: number } | { name?: string; sources: ColumnSource[] };

export function orderingSources<N>(items: readonly N[], outputs: readonly Output[], read: (item: N) => OrderingItem): ColumnSource[] {
  return items.flatMap((item) => {
    const what = read(item);
    if ("ordinal" in what) return sourcesOf([ordinalOutput(what.ordinal, outputs)]);
    const named = what.name === undefined ? [] : outputs.filter((o) => o.name === what.name);
    return [...what.sources, ...sourcesOf(named)];
  });
}

function ordinalOutput(ordinal: number, outputs: readonly Output[]): Output {
  const reached = outputs.slice(0, ordinal);
  const untraced = ordinal < 1 || reached.length < ordinal || reached.some((o) => o.star);
  return untraced ? { name: undefined, source: { untraced: true } } : outputs[ordinal - 1]!;
}

/** What the outputs read (a DISTINCT compares them all). */
export function sourcesOf(outputs: readonly Output[]): ColumnSource[] {
  return outputs.flatMap((o) => (o.source === "constant" ? [] : [o.source]));
}
