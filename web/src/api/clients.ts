// One client per service, made on first use so that a page's chunk carries
// only the services it calls.
import type { DescService } from "@bufbuild/protobuf";
import { type Client, createClient } from "@connectrpc/connect";
import { AuthService } from "@gen/svc/v1/auth_service_pb.js";
import { authTransport, transport } from "./transport.ts";

const clients = new WeakMap<DescService, unknown>();

/** The client of a service over the console's transport. */
export function client<S extends DescService>(service: S): Client<S> {
  let made = clients.get(service) as Client<S> | undefined;
  if (!made) {
    made = createClient(service, transport);
    clients.set(service, made);
  }
  return made;
}

/** Sign-in, refresh and sign-out, whose refusals the sign-in pages show. */
export const authClient = createClient(AuthService, authTransport);
