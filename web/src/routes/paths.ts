// The console's paths. The password-reset path is the one the server's
// e-mail links to (contract §5.3); the others are the console's own.
export const paths = {
  signIn: "/auth/sign-in",
  passwordChange: "/auth/password-change",
  mfaEnrollment: "/auth/mfa-enrollment",
  forgotPassword: "/auth/forgot-password",
  passwordReset: "/auth/password-reset",
  signUp: "/auth/sign-up",
  home: "/",
  issues: "/issues",
  projects: "/projects",
  /** The SQL Editor: queries, plans and exports on a database. */
  sqlEditor: "/sql-editor",
  /** The signed-in user's own account. */
  account: "/account",
  /** One issue: `/projects/<project>/issues/<number>`. */
  issue: "/projects/:project/issues/:issue",
  /** A new plan and its issue in a project. */
  newChange: "/projects/:project/changes/new",
  /** A project's members and roles (its IAM policy). */
  projectMembers: "/projects/:project/members",
  /** A project's databases. */
  projectDatabases: "/projects/:project/databases",
  /** One database's schema: `/projects/<project>/databases/<instance>/<database>`. */
  databaseSchema: "/projects/:project/databases/:instance/:database",
  /** The versions applied to one database (its revisions). */
  databaseRevisions: "/projects/:project/databases/:instance/:database/revisions",
  /** One revision of a database, with the statement of its release file. */
  databaseRevision: "/projects/:project/databases/:instance/:database/revisions/:revision",
  /** A project's releases. */
  projectReleases: "/projects/:project/releases",
  /** One release: its files with their statements and checksums. */
  release: "/projects/:project/releases/:release",
  /** A project's webhooks. */
  projectWebhooks: "/projects/:project/webhooks",
} as const;

/** Pages anyone may open, whatever the session. */
export const PUBLIC_PATHS: readonly string[] = [paths.forgotPassword, paths.passwordReset];

/** Pages for a signed-out visitor only. */
export const SIGNED_OUT_PATHS: readonly string[] = [paths.signIn, paths.signUp];

/**
 * A path of this console to return to, from a `redirect` query parameter:
 * only a same-origin absolute path ("/issues?x=1"), never "//host" or a URL.
 */
export function safeReturnPath(value: string | null | undefined): string {
  if (!value || !value.startsWith("/") || value.startsWith("//") || value.startsWith("/\\")) return paths.home;
  return value;
}

/** `page` with the path to return to afterwards, when that is not the home page. */
export function withReturnPath(page: string, back: string): string {
  const path = safeReturnPath(back);
  return path === paths.home ? page : `${page}?redirect=${encodeURIComponent(path)}`;
}

/** `path` with its `:name` segments filled in (each value escaped). */
export function pathOf(path: string, values: Record<string, string>): string {
  return path.replace(/:(\w+)/g, (_, name: string) => encodeURIComponent(values[name] ?? ""));
}
