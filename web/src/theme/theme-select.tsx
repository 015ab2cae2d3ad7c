import { useState } from "react";
import { chooseTheme, storedTheme, THEME_CHOICES, type ThemeChoice } from "./theme.ts";

const LABELS: Record<ThemeChoice, string> = { system: "System theme", light: "Light theme", dark: "Dark theme" };

export function ThemeSelect() {
  const [choice, setChoice] = useState(storedTheme);
  return (
    <select
      className="theme-select"
      aria-label="Theme"
      value={choice}
      onChange={(event) => {
        const next = event.target.value as ThemeChoice;
        chooseTheme(next);
        setChoice(next);
      }}
    >
      {THEME_CHOICES.map((value) => (
        <option key={value} value={value}>
          {LABELS[value]}
        </option>
      ))}
    </select>
  );
}
