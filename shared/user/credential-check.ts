// A wrong current credential in UpdateUser (the current password, a code of
// the enabled second factor) counts toward the login id's lockout like a
// failed sign-in (contract §4.4, §5.1); the count commits although the call
// fails.
import type { CallAudit } from "../audit/call-audit.ts";
import { countFailure } from "../auth/lockout.ts";
import { invalidArgument } from "../platform/errors.ts";

/** Counts the failure and answers the invalid_argument refusal to throw. */
export async function countedRefusal(audit: CallAudit, loginId: string, message: string): Promise<Error> {
  audit.keepChangesOnError = true;
  await countFailure(audit.tx, loginId);
  return invalidArgument(message);
}
