import { describe, expect, it } from "vitest";
import { rowWindow } from "./row-window.ts";

describe("rowWindow", () => {
  it("draws the rows in view and the overscan either side", () => {
    expect(rowWindow(0, 300, 30, 100_000, 5)).toEqual({ first: 0, end: 16 });
    expect(rowWindow(30 * 1000 + 10, 300, 30, 100_000, 5)).toEqual({ first: 995, end: 1016 });
  });

  it("stops at the last row, keeping a full view of rows there", () => {
    expect(rowWindow(30 * 99_990, 300, 30, 100_000, 5)).toEqual({ first: 99_984, end: 100_000 });
  });

  it("draws every row of a short result and nothing of an empty one", () => {
    expect(rowWindow(0, 300, 30, 3, 5)).toEqual({ first: 0, end: 3 });
    expect(rowWindow(0, 300, 30, 0, 5)).toEqual({ first: 0, end: 0 });
  });
});
