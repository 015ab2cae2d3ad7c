// The signed-in user, as far as the console knows: read from the session
// cookie at start (GetCurrentUser), set by a sign-in, and dropped or
// restricted when the transport signals that the server refused the session.
import type { LoginResponse } from "@gen/svc/v1/auth_service_pb.js";
import { type User, UserService } from "@gen/svc/v1/user_service_pb.js";
import { createContext, type ReactNode, use, useCallback, useEffect, useMemo, useState } from "react";
import { authClient, client } from "../../api/clients.ts";
import { sessionSignals } from "../../api/session-signals.ts";
import { sessionAfterLogin, sessionAfterLoss, type SessionState } from "./session-state.ts";

interface SessionApi {
  state: SessionState;
  /** Takes the answer of a completed sign-in (not of a first step that asks for a second factor). */
  signedIn(reply: LoginResponse): void;
  /** The forced password change or enrolment is done: the session is whole again. */
  unrestricted(user?: User): void;
  /** The user changed their own account (profile, password, second factor). */
  updated(user: User): void;
  signOut(): Promise<void>;
}

const SessionContext = createContext<SessionApi | undefined>(undefined);

export function SessionProvider({ children }: { children: ReactNode }) {
  const [state, setState] = useState<SessionState>({ status: "loading" });

  useEffect(() => {
    let live = true;
    client(UserService)
      .getCurrentUser({})
      .then(
        (user) => live && setState((s) => (s.status === "loading" ? { status: "signed-in", user } : s)),
        () => live && setState((s) => (s.status === "loading" ? { status: "signed-out" } : s)),
      );
    const unsubscribe = sessionSignals.subscribe((loss) => setState((s) => sessionAfterLoss(s, loss)));
    return () => {
      live = false;
      unsubscribe();
    };
  }, []);

  const signedIn = useCallback((reply: LoginResponse) => setState(sessionAfterLogin(reply)), []);
  const unrestricted = useCallback(
    (user?: User) => setState((s) => (s.status === "signed-in" ? { status: "signed-in", user: user ?? s.user } : s)),
    [],
  );
  const updated = useCallback((user: User) => setState((s) => (s.status === "signed-in" ? { ...s, user } : s)), []);
  const signOut = useCallback(async () => {
    // The cookies are cleared by the answer; a session already gone is signed out too.
    await authClient.logout({}).catch(() => undefined);
    setState({ status: "signed-out", reason: "signed-out" });
  }, []);

  const api = useMemo(() => ({ state, signedIn, unrestricted, updated, signOut }), [state, signedIn, unrestricted, updated, signOut]);
  return <SessionContext value={api}>{children}</SessionContext>;
}

export function useSession(): SessionApi {
  const api = use(SessionContext);
  if (!api) throw new Error("useSession needs a SessionProvider above it");
  return api;
}
