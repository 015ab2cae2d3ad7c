// Which rows of a long result are drawn: those in view plus a few either
// side, all of one height, so the grid costs the same at 100 rows or
// 100,000 (decision 0114).

export interface RowWindow {
  /** The first row drawn. */
  first: number;
  /** One past the last row drawn. */
  end: number;
}

export function rowWindow(scrollTop: number, viewportHeight: number, rowHeight: number, count: number, overscan: number): RowWindow {
  const top = Math.max(0, Math.floor(scrollTop / rowHeight));
  const visible = Math.ceil(viewportHeight / rowHeight) + 1;
  const first = Math.max(0, Math.min(top, count - visible) - overscan);
  const end = Math.min(count, top + visible + overscan);
  return { first, end: Math.max(first, end) };
}
