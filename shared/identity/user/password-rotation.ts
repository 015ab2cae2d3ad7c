// When a user must change the password before doing anything else (contract
// §4.2): after bootstrap, an admin reset, or once password_rotation has passed.
export interface PasswordState {
  requireResetPassword: boolean;
  passwordChangeTime: Date | null;
}

export function passwordChangeDue(state: PasswordState, rotationMs: number | undefined, now = Date.now()): boolean {
  if (state.requireResetPassword) return true;
  return rotationMs !== undefined && state.passwordChangeTime !== null && state.passwordChangeTime.getTime() + rotationMs < now;
}
