import { cleanup, render, screen, waitFor } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { ListTable } from "./list-table.tsx";

afterEach(cleanup);

// happy-dom lays nothing out: a table's widths are given here, as a narrow window would make them.
function widths(table: HTMLElement, inside: number, box: number): void {
  Object.defineProperty(table, "scrollWidth", { configurable: true, value: inside });
  Object.defineProperty(table, "clientWidth", { configurable: true, value: box });
}

function Rows({ cells }: { cells: string[] }) {
  return (
    <ListTable columns={["Name"]}>
      {cells.map((cell) => (
        <tr key={cell}>
          <td>{cell}</td>
        </tr>
      ))}
    </ListTable>
  );
}

describe("ListTable", () => {
  it("is a Tab stop only while its rows are wider than its box", async () => {
    const { rerender } = render(<Rows cells={["a"]} />);
    const table = screen.getByRole("table");
    expect(table.hasAttribute("tabindex")).toBe(false);

    widths(table, 600, 350);
    rerender(<Rows cells={["a", "a much longer row"]} />);
    await waitFor(() => expect(table.getAttribute("tabindex")).toBe("0"));

    widths(table, 350, 350);
    rerender(<Rows cells={["a"]} />);
    await waitFor(() => expect(table.hasAttribute("tabindex")).toBe(false));
  });
});
