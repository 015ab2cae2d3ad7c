import type { ReactNode } from "react";
import { Link, useLocation } from "wouter";

/** A link of the main navigation, marked as the current page under its path. */
export function NavLink({ href, children }: { href: string; children: ReactNode }) {
  const [location] = useLocation();
  const current = location === href || location.startsWith(`${href}/`);
  return (
    <Link href={href} className="nav-link" aria-current={current ? "page" : undefined}>
      {children}
    </Link>
  );
}
