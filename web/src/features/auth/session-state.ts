// The session's states and how sign-in answers and refusals move between them.
import type { LoginResponse } from "@gen/svc/v1/auth_service_pb.js";
import type { User } from "@gen/svc/v1/user_service_pb.js";
import type { SessionLoss } from "../../api/session-signals.ts";

/** What a restricted session may still do: change the password, or enrol a second factor. */
export type Restriction = "password-change" | "mfa-enrollment";

export type SessionState =
  | { status: "loading" }
  /** `reason` tells the sign-in page why it is shown when it was not the user's choice. */
  | { status: "signed-out"; reason?: "expired" | "signed-out" }
  | { status: "signed-in"; user: User; restriction?: Restriction };

export function sessionAfterLogin(reply: LoginResponse): SessionState {
  if (!reply.user) throw new Error("a completed sign-in answers the user");
  const restriction = reply.requireResetPassword ? "password-change" : reply.requireMfaEnrollment ? "mfa-enrollment" : undefined;
  return { status: "signed-in", user: reply.user, ...(restriction ? { restriction } : {}) };
}

/** A refusal of the session: a signed-in session ends or narrows; any other state stays. */
export function sessionAfterLoss(state: SessionState, loss: SessionLoss): SessionState {
  if (state.status !== "signed-in") return state;
  if (loss === "signed-out") return { status: "signed-out", reason: "expired" };
  return { ...state, restriction: loss };
}
