// A refusal as the page shows it: the server's own message (contract §1.1),
// or what went wrong on the way when no answer came.
import { Code, ConnectError } from "@connectrpc/connect";

export function errorMessage(error: unknown): string {
  const refusal = ConnectError.from(error);
  // fetch rejects with a TypeError when no answer arrived at all.
  if (refusal.cause instanceof TypeError) return "The server cannot be reached. Check the connection and try again.";
  if (refusal.code === Code.Canceled) return "The request was cancelled.";
  return refusal.rawMessage || `The request failed (${Code[refusal.code]}).`;
}
