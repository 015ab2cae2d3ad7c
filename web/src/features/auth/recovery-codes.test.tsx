import { cleanup, fireEvent, render, screen } from "@testing-library/react";
import { afterEach, describe, expect, it } from "vitest";
import { RecoveryCodes } from "./recovery-codes.tsx";

afterEach(cleanup);

describe("recovery codes", () => {
  it("lists the codes, offers them as a file, and lets the user go on only once they say the codes are saved", () => {
    let done = 0;
    render(<RecoveryCodes codes={["abcd-efgh", "ijkl-mnop"]} onDone={() => done++} />);
    expect(screen.getAllByRole("listitem").map((item) => item.textContent)).toEqual(["abcd-efgh", "ijkl-mnop"]);
    expect(screen.getByRole("link", { name: "Download" }).getAttribute("href")).toBe("data:text/plain;charset=utf-8,abcd-efgh%0Aijkl-mnop%0A");
    const proceed = screen.getByRole("button", { name: "Continue" });
    expect((proceed as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(screen.getByRole("checkbox", { name: "I have saved these codes" }));
    fireEvent.click(proceed);
    expect(done).toBe(1);
  });
});
