// Who is calling: the principal a credential resolves to.

export interface Principal {
  /** Resource name, e.g. users/alice. */
  name: string;
  /** The principal's row id (0 for callers that are not stored principals). */
  id: number;
  loginId: string;
  /** The sign-in this credential belongs to; Logout ends it. */
  sessionFamilyId?: string;
  /**
   * Set while the principal must first change its password (bootstrap, an
   * admin reset, rotation): only the calls that allow it pass (contract §1.3).
   */
  pendingPasswordReset: boolean;
}

export function userName(loginId: string): string {
  return `users/${loginId}`;
}
