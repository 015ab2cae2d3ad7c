// The identity providers' sign-in links (contract §4.8), from the public
// list of providers (title and name only). Nothing is shown while the list
// is read or when it cannot be: the other ways of signing in remain.
import { createClient } from "@connectrpc/connect";
import { IdentityProviderService } from "@gen/svc/v1/identity_provider_service_pb.js";
import { authTransport } from "../../api/transport.ts";
import { useLoad } from "../../hooks/use-load.ts";
import { ssoLinks } from "./sign-in-methods.ts";

const providers = createClient(IdentityProviderService, authTransport);

/** `back` is the console's path to return to once signed in. */
export function SsoLinks({ back }: { back: string }) {
  const loaded = useLoad((signal) => providers.listIdentityProviders({}, { signal }), []);
  if (loaded.status !== "done" || loaded.value.identityProviders.length === 0) return null;
  return (
    <nav aria-label="Identity providers" className="sso-links">
      <ul>
        {ssoLinks(loaded.value.identityProviders, back).map((link) => (
          <li key={link.key}>
            <a className="button sso-link" href={link.href}>
              Continue with {link.title}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
