// E-mail addresses of users: stored lower-case; empty means none.
import { invalidArgument } from "../platform/errors.ts";

const EMAIL = /^[^\s@]+@[^\s@]+$/;

export function parseEmail(text: string, field: string): string {
  const email = text.trim().toLowerCase();
  if (email !== "" && !EMAIL.test(email)) throw invalidArgument(`${field}: "${text}" is not an e-mail address`);
  return email;
}
