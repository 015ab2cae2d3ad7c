// E-mail addresses (of users, groups, the EMAIL setting's sender and test
// recipient): their syntax, lower-cased; empty means none.
import { invalidArgument, quoted } from "./errors.ts";

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export function parseEmail(text: string, field: string): string {
  const email = text.trim().toLowerCase();
  if (email !== "" && !EMAIL.test(email)) throw invalidArgument(`${field}: ${quoted(text)} is not an e-mail address`);
  return email;
}

/** True when `text` has the shape of an e-mail address (as a login id may). */
export function isEmailAddress(text: string): boolean {
  return EMAIL.test(text);
}

/** An address that must be given (lower-case); empty or malformed → invalid_argument naming the field. */
export function requireEmail(text: string, field: string): string {
  const email = parseEmail(text, field);
  if (!email) throw invalidArgument(`${field}: an e-mail address is required`);
  return email;
}
