// The frame of the signed-in console: the workspace's name, the main
// navigation, the signed-in user with sign-out, the workspace's banners,
// then the page.
import type { ReactNode } from "react";
import { Link } from "wouter";
import { paths } from "../../routes/paths.ts";
import { ThemeSelect } from "../../theme/theme-select.tsx";
import { Watermark } from "../account/watermark.tsx";
import { AdminNavEntry } from "../admin/admin-nav-entry.tsx";
import { useSession } from "../auth/session.tsx";
import { useActuatorInfo, workspaceTitle } from "../workspace/actuator-info.ts";
import { Banners } from "./banners.tsx";
import { NavLink } from "./nav-link.tsx";

export function AppShell({ children }: { children: ReactNode }) {
  const session = useSession();
  const title = workspaceTitle(useActuatorInfo());
  const user = session.state.status === "signed-in" ? session.state.user : undefined;
  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to the page
      </a>
      <header className="shell-header">
        <Link href={paths.home} className="brand">
          {title}
        </Link>
        <nav aria-label="Main">
          <ul className="nav-list">
            <li>
              <NavLink href={paths.issues}>Issues</NavLink>
            </li>
            <li>
              <NavLink href={paths.projects}>Projects</NavLink>
            </li>
            <li>
              <NavLink href={paths.sqlEditor}>SQL Editor</NavLink>
            </li>
            <AdminNavEntry />
          </ul>
        </nav>
        <div className="shell-user">
          <ThemeSelect />
          <Link href={paths.account} className="user-name" title={`Your account${user?.email ? ` (${user.email})` : ""}`}>
            {user?.title || user?.loginId}
          </Link>
          <button type="button" className="button" onClick={() => void session.signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <Banners />
      {user && <Watermark user={user} />}
      <main id="main" className="shell-main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
