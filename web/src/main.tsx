// The console's entry: the theme first (before the first paint), then the app.
import { StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { App } from "./app.tsx";
import "./styles/index.css";
import { applyTheme, storedTheme } from "./theme/theme.ts";

applyTheme(storedTheme());

const root = document.getElementById("root");
if (!root) throw new Error("index.html has no #root element");
createRoot(root).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
