// The console's one Connect transport (decision 0093): same origin, binary
// protobuf, the session's HttpOnly cookies (contract §4.2) sent with every
// call, and the CSRF header the server requires of cookie-authenticated
// calls that change state (§19.5). No token ever reaches script.
import { Code, ConnectError, createClient, type Interceptor, type Transport } from "@connectrpc/connect";
import { createConnectTransport } from "@connectrpc/connect-web";
import { AuthService } from "@gen/svc/v1/auth_service_pb.js";
import { sessionSignals } from "./session-signals.ts";

export const CSRF_HEADER = "X-Svc-Csrf";

const csrfHeader: Interceptor = (next) => (req) => {
  req.header.set(CSRF_HEADER, "1");
  return next(req);
};

function connectTransport(interceptors: Interceptor[]): Transport {
  return createConnectTransport({
    baseUrl: globalThis.location?.origin ?? "/",
    useBinaryFormat: true,
    fetch: (input, init) => globalThis.fetch(input, { ...init, credentials: "include" }),
    interceptors: [csrfHeader, ...interceptors],
  });
}

/** For sign-in, refresh and sign-out: their refusals are the page's to show. */
export const authTransport = connectTransport([]);

let renewing: Promise<boolean> | undefined;

/** Trades the refresh cookie for new session cookies, once for all the calls refused together. */
function renewSession(): Promise<boolean> {
  renewing ??= createClient(AuthService, authTransport)
    .refresh({ web: true })
    .then(() => true, () => false)
    .finally(() => {
      renewing = undefined;
    });
  return renewing;
}

/**
 * Everything else: an expired access token is renewed once from the refresh
 * cookie and the call repeated; a session that cannot be renewed, or one
 * restricted to a password change, is signalled to the session state.
 */
export const transport = connectTransport([
  (next) => async (req) => {
    try {
      return await next(req);
    } catch (error) {
      const expired = ConnectError.from(error).code === Code.Unauthenticated && !req.stream;
      if (!expired || !(await renewSession())) throw signalled(error);
    }
    try {
      return await next(req);
    } catch (error) {
      throw signalled(error);
    }
  },
]);

function signalled(error: unknown): unknown {
  sessionSignals.refused(ConnectError.from(error));
  return error;
}
