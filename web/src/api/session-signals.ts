// What the transport learns about the session from a refusal, told to the
// session state without the two importing each other.
import { Code, type ConnectError } from "@connectrpc/connect";

/** Why the session can no longer serve the page. */
export type SessionLoss = "signed-out" | "password-change" | "mfa-enrollment";

type Listener = (loss: SessionLoss) => void;

// A restricted session's refusals name their cause at the start of the
// message (contract §1.3; api/transport/interceptors/acl.ts).
const RESTRICTIONS: [prefix: string, loss: SessionLoss][] = [
  ["password change required", "password-change"],
  ["second factor enrolment required", "mfa-enrollment"],
];

/** The loss a refusal means, or undefined for an ordinary refusal the page shows. */
export function sessionLossOf(error: ConnectError): SessionLoss | undefined {
  if (error.code === Code.Unauthenticated) return "signed-out";
  if (error.code !== Code.PermissionDenied) return undefined;
  return RESTRICTIONS.find(([prefix]) => error.rawMessage.startsWith(prefix))?.[1];
}

const listeners = new Set<Listener>();

export const sessionSignals = {
  refused(error: ConnectError): void {
    const loss = sessionLossOf(error);
    if (loss) for (const listener of listeners) listener(loss);
  },
  subscribe(listener: Listener): () => void {
    listeners.add(listener);
    return () => void listeners.delete(listener);
  },
};
