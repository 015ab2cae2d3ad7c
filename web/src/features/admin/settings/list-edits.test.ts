import { describe, expect, it } from "vitest";
import { listEdits } from "./list-edits.ts";

describe("listEdits", () => {
  const edited = (rows: string[][], edit: (edits: ReturnType<typeof listEdits<string[]>>) => void) => {
    let result = rows;
    edit(listEdits(rows, (next) => (result = next)));
    return result;
  };

  it("moves an entry by one place and leaves the ends alone", () => {
    expect(edited([["a"], ["b"], ["c"]], (edits) => edits.move(2, -1))).toEqual([["a"], ["c"], ["b"]]);
    expect(edited([["a"], ["b"]], (edits) => edits.move(0, -1))).toEqual([["a"], ["b"]]);
    expect(edited([["a"], ["b"]], (edits) => edits.move(1, 1))).toEqual([["a"], ["b"]]);
  });

  it("replaces an entry that is not an object whole, removes and adds", () => {
    expect(edited([["a"], ["b"]], (edits) => edits.replace(1, ["b", "c"]))).toEqual([["a"], ["b", "c"]]);
    expect(edited([["a"], ["b"]], (edits) => edits.remove(0))).toEqual([["b"]]);
    expect(edited([["a"]], (edits) => edits.add([]))).toEqual([["a"], []]);
  });
});
