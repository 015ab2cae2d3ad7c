// Strong generated passwords (bootstrap, admin resets): 24 characters with
// every class the default password policy asks for.
import { randomInt } from "node:crypto";

const CLASSES = ["ABCDEFGHJKLMNPQRSTUVWXYZ", "abcdefghijkmnopqrstuvwxyz", "23456789", "!#%+-.:=?@_~"];
const ALL = CLASSES.join("");

export function generatePassword(length = 24): string {
  const chars = CLASSES.map(pick);
  while (chars.length < length) chars.push(pick(ALL));
  for (let i = chars.length - 1; i > 0; i--) {
    const j = randomInt(i + 1);
    [chars[i], chars[j]] = [chars[j]!, chars[i]!];
  }
  return chars.join("");
}

function pick(alphabet: string): string {
  return alphabet[randomInt(alphabet.length)]!;
}
