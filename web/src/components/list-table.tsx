import { useRef, type ReactNode } from "react";
import { useScrollsSideways } from "../hooks/use-scrolls-sideways.ts";

/**
 * A list as a table: its column headings, then the rows the page renders.
 * On a narrow window it scrolls sideways in its own box, and is then a Tab
 * stop so the arrow keys can scroll it.
 */
export function ListTable({ columns, children }: { columns: readonly string[]; children: ReactNode }) {
  const table = useRef<HTMLTableElement>(null);
  const scrolls = useScrollsSideways(table);
  return (
    <table className="table" ref={table} tabIndex={scrolls ? 0 : undefined}>
      <thead>
        <tr>
          {columns.map((column) => (
            <th key={column} scope="col">
              {column}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>{children}</tbody>
    </table>
  );
}
