// Light and dark themes: the system's choice (prefers-color-scheme) unless
// the user picked one, which this browser remembers. The colours follow
// CSS light-dark(), so a theme is only the root's color-scheme.
export type ThemeChoice = "system" | "light" | "dark";

export const THEME_CHOICES: readonly ThemeChoice[] = ["system", "light", "dark"];
const KEY = "svc-console-theme";

export function storedTheme(storage: Pick<Storage, "getItem"> = localStorage): ThemeChoice {
  const value = storage.getItem(KEY);
  return THEME_CHOICES.includes(value as ThemeChoice) ? (value as ThemeChoice) : "system";
}

export function applyTheme(choice: ThemeChoice, root: HTMLElement = document.documentElement): void {
  if (choice === "system") delete root.dataset.theme;
  else root.dataset.theme = choice;
}

export function chooseTheme(choice: ThemeChoice, storage: Pick<Storage, "setItem" | "removeItem"> = localStorage): void {
  if (choice === "system") storage.removeItem(KEY);
  else storage.setItem(KEY, choice);
  applyTheme(choice);
}
