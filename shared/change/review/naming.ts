// Name conventions shared by the naming rules (contract §10.4): the default
// snake_case pattern and the check of a name against a pattern and length.
import { compiledPattern } from "./rule-payload.ts";

/** Lower-case letters, digits and underscores, starting with a letter. */
export const SNAKE_CASE = "^[a-z][a-z0-9_]*$";

/** Why a name breaks the convention ("does not match /…/"), or undefined. */
export function namingProblem(name: string, pattern: string, maxLength: number): string | undefined {
  if (!compiledPattern(pattern).test(name)) return `does not match /${pattern}/`;
  if (name.length > maxLength) return `is ${name.length} characters long, more than ${maxLength}`;
  return undefined;
}
