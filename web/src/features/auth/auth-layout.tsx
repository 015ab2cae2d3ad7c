// The frame of the pages before the console: the workspace's name above one
// card, whose heading names the step.
import type { ReactNode } from "react";
import { ThemeSelect } from "../../theme/theme-select.tsx";
import { useActuatorInfo, workspaceTitle } from "../workspace/actuator-info.ts";
import { useDocumentTitle } from "../../hooks/use-document-title.ts";

export function AuthLayout({ heading, children }: { heading: string; children: ReactNode }) {
  const title = workspaceTitle(useActuatorInfo());
  useDocumentTitle(`${heading} · ${title}`);
  return (
    <div className="auth-page">
      <header className="auth-header">
        <p className="workspace-name">{title}</p>
        <ThemeSelect />
      </header>
      <main className="auth-card" aria-labelledby="auth-heading">
        <h1 id="auth-heading">{heading}</h1>
        {children}
      </main>
    </div>
  );
}
