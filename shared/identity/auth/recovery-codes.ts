// Recovery codes of the second factor (contract §5.1): 10 per activation,
// `xxxx-xxxx` from lower-case letters and digits without look-alikes (about
// 41 bits each), shown once and stored as SHA-256 hashes: they are random, so
// a slow hash adds nothing.
import { randomInt } from "node:crypto";
import { tokenHash } from "./tokens.ts";

export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = "abcdefghjkmnpqrstuvwxyz23456789";
const FORMAT = new RegExp(`^[${ALPHABET}]{4}-[${ALPHABET}]{4}$`);

/** New codes, to show once, and their hashes, to store. */
export function newRecoveryCodes(): { codes: string[]; hashes: Buffer[] } {
  const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => `${randomChars(4)}-${randomChars(4)}`);
  return { codes, hashes: codes.map(tokenHash) };
}

/** The stored hash of a code as typed (case and surrounding spaces ignored); undefined when malformed. */
export function recoveryCodeHash(code: string): Buffer | undefined {
  const normal = code.trim().toLowerCase();
  return FORMAT.test(normal) ? tokenHash(normal) : undefined;
}

function randomChars(length: number): string {
  let text = "";
  for (let i = 0; i < length; i++) text += ALPHABET[randomInt(ALPHABET.length)];
  return text;
}
