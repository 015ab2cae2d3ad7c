import type { ReactNode } from "react";

/** A list as a table: its column headings, then the rows the page renders. */
export function ListTable({ columns, children }: { columns: readonly string[]; children: ReactNode }) {
  return (
    <table className="table">
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
