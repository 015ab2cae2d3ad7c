// A statement's rows as a table that draws only the rows in view (decision
// 0114): every row is ROW_HEIGHT pixels high, so where a row sits is its
// index times that, and scrolling 100,000 rows rewrites a few dozen. The
// table keeps the ARIA row count and indices of the whole result.
import { type CSSProperties, type UIEvent, useLayoutEffect, useRef, useState } from "react";
import { cellOf } from "./cell-text.ts";
import { isMasked } from "./masked-columns.ts";
import type { ShownResult } from "./packed-rows.ts";
import { rowWindow } from "./row-window.ts";

/** Must match `.result-row`'s height in sql-editor.css. */
const ROW_HEIGHT = 30;
const OVERSCAN = 4;

export function ResultGrid({ result, label }: { result: ShownResult; label: string }) {
  const scroller = useRef<HTMLDivElement>(null);
  const [viewport, setViewport] = useState({ top: 0, height: 480 });
  useLayoutEffect(() => {
    const element = scroller.current!;
    const observer = new ResizeObserver(() => setViewport((v) => ({ ...v, height: element.clientHeight })));
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  const onScroll = (event: UIEvent<HTMLDivElement>) => {
    const top = event.currentTarget.scrollTop;
    // A new window only when the first row in view changes.
    setViewport((v) => (Math.floor(v.top / ROW_HEIGHT) === Math.floor(top / ROW_HEIGHT) ? v : { ...v, top }));
  };

  const { rows, columnNames, columnTypeNames } = result;
  const { first, end } = rowWindow(viewport.top, viewport.height, ROW_HEIGHT, rows.length, OVERSCAN);
  const masked = columnNames.map((_, i) => isMasked(result, i));
  const shape = { "--columns": columnNames.length } as CSSProperties;
  return (
    <div ref={scroller} className="result-scroll" tabIndex={0} role="region" aria-label={`${label}, scrollable`} onScroll={onScroll}>
      <div role="table" aria-label={label} aria-rowcount={rows.length + 1} aria-colcount={columnNames.length + 1} className="result-table" style={shape}>
        <div role="rowgroup" className="result-head">
          <div role="row" aria-rowindex={1} className="result-row">
            <span role="columnheader" className="row-number">
              #
            </span>
            {columnNames.map((name, i) => (
              <span role="columnheader" key={i} className="column-head">
                <span className="column-name">{name}</span>
                <span className="column-type">
                  {columnTypeNames[i]}
                  {masked[i] && (
                    <>
                      {" "}
                      <span className="badge masked-badge">masked</span>
                    </>
                  )}
                </span>
              </span>
            ))}
          </div>
        </div>
        <div role="rowgroup" className="result-body" style={{ height: rows.length * ROW_HEIGHT }}>
          <div className="result-window" style={{ transform: `translateY(${first * ROW_HEIGHT}px)` }}>
            {Array.from({ length: end - first }, (_, offset) => {
              const index = first + offset;
              const row = rows.row(index);
              return (
                // Keyed by the slot in the window: a scroll rewrites the rows' text instead of making new rows.
                <div role="row" aria-rowindex={index + 2} key={offset} className="result-row">
                  <span role="rowheader" className="row-number">
                    {index + 1}
                  </span>
                  {columnNames.map((_, i) => (
                    <GridCell key={i} value={cellOf(row.values[i])} masked={masked[i]!} />
                  ))}
                </div>
              );
            })}
          </div>
        </div>
      </div>
    </div>
  );
}

function GridCell({ value, masked }: { value: ReturnType<typeof cellOf>; masked: boolean }) {
  const className = masked ? "cell cell-masked" : "cell";
  if (value.kind === "null") {
    return (
      <span role="cell" className={`${className} cell-null`}>
        NULL
      </span>
    );
  }
  return (
    <span role="cell" className={className} title={value.text.length > 24 ? value.text : undefined}>
      {value.text}
    </span>
  );
}
