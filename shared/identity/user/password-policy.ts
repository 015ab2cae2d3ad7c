// The workspace password policy (WORKSPACE_PROFILE.password_restriction):
// every unmet rule is named, so a client can show them all at once.
import { invalidArgument } from "../../platform/index.ts";
import type { PasswordRestriction } from "../../governance/index.ts";

const MAX_LENGTH = 1024;

export function passwordViolations(password: string, rules: PasswordRestriction): string[] {
  const unmet: string[] = [];
  const length = [...password].length;
  if (length < rules.minLength) unmet.push(`at least ${rules.minLength} characters`);
  if (length > MAX_LENGTH) unmet.push(`at most ${MAX_LENGTH} characters`);
  if (rules.requireNumber && !/\p{Nd}/u.test(password)) unmet.push("a number");
  if (rules.requireLetter && !/\p{L}/u.test(password)) unmet.push("a letter");
  if (rules.requireUppercaseLetter && !/\p{Lu}/u.test(password)) unmet.push("an upper-case letter");
  if (rules.requireSpecialCharacter && !/[^\p{L}\p{Nd}]/u.test(password)) unmet.push("a special character");
  return unmet;
}

export function assertPasswordAllowed(password: string, rules: PasswordRestriction, field = "password"): void {
  const unmet = passwordViolations(password, rules);
  if (unmet.length > 0) throw invalidArgument(`${field} does not meet the password policy; it needs ${unmet.join(", ")}`);
}
