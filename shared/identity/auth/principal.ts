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
   * admin reset, rotation) or enrol a second factor (require_2fa): only the
   * calls that allow it pass, for that purpose (contract §1.3, §5.1).
   */
  restriction?: Restriction;
}

/** What a principal must do before anything else; a password change comes first. */
export type Restriction = "password_change" | "mfa_enrollment";
