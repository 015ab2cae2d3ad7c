import { afterEach, describe, expect, it } from "vitest";
import { applyTheme, chooseTheme, storedTheme } from "./theme.ts";

afterEach(() => {
  localStorage.clear();
  applyTheme("system");
});

describe("theme", () => {
  it("follows the system until the user picks a theme, and remembers the pick", () => {
    expect(storedTheme()).toBe("system");
    chooseTheme("dark");
    expect(document.documentElement.dataset.theme).toBe("dark");
    expect(storedTheme()).toBe("dark");
    chooseTheme("system");
    expect(document.documentElement.dataset.theme).toBeUndefined();
    expect(localStorage.length).toBe(0);
  });

  it("ignores a stored value it does not know", () => {
    localStorage.setItem("svc-console-theme", "sepia");
    expect(storedTheme()).toBe("system");
  });
});
