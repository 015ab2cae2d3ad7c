// The main navigation's entry to the administration area, shown only to a
// user who may open one of its sections.
import { NavLink } from "../shell/nav-link.tsx";
import { usePermissions, WORKSPACE } from "../iam/use-permissions.ts";
import { ADMIN_ROOT, ADMIN_SECTIONS } from "./admin-sections.ts";

const SECTION_PERMISSIONS = ADMIN_SECTIONS.map((section) => section.permission);

export function AdminNavEntry() {
  const permissions = usePermissions(WORKSPACE, SECTION_PERMISSIONS);
  if (!ADMIN_SECTIONS.some((section) => permissions.can(section.permission))) return null;
  return (
    <li>
      <NavLink href={ADMIN_ROOT}>Administration</NavLink>
    </li>
  );
}
