// The identity providers users sign in with (contract §4), read-only: what
// each is, where it sends its answers, and whom it speaks for.
import { IdentityProvider_Type, IdentityProviderService, type IdentityProvider } from "@gen/svc/v1/identity_provider_service_pb.js";
import { client } from "../../api/clients.ts";
import { ListFooter } from "../../components/list-footer.tsx";
import { ListTable } from "../../components/list-table.tsx";
import { useDocumentTitle } from "../../hooks/use-document-title.ts";
import { usePages } from "../../hooks/use-pages.ts";

/** The provider's own identity: the OIDC issuer or the SAML entity id. */
function issuerOf(provider: IdentityProvider): string {
  const config = provider.config?.config;
  if (config?.case === "oidc") return config.value.issuer;
  if (config?.case === "saml") return config.value.entityId;
  return "";
}

export function IdentityProvidersPage() {
  useDocumentTitle("Identity providers");
  const pages = usePages(async (pageToken, signal) => {
    const reply = await client(IdentityProviderService).listIdentityProviders({ pageToken, pageSize: 100 }, { signal });
    return { items: reply.identityProviders, nextPageToken: reply.nextPageToken };
  }, []);
  return (
    <section aria-labelledby="idps-heading" className="page">
      <h1 id="idps-heading">Identity providers</h1>
      {pages.items.length > 0 && (
        <ListTable columns={["Provider", "Type", "Issuer", "Domain", "Callback URL"]}>
          {pages.items.map((provider) => (
            <tr key={provider.name}>
              <td>
                {provider.title}
                <br />
                <code className="hint">{provider.name.replace(/^idps\//, "")}</code>
              </td>
              <td>{IdentityProvider_Type[provider.type]}</td>
              <td className="wrap">{issuerOf(provider) || "–"}</td>
              <td>{provider.domain || "–"}</td>
              <td className="wrap">{provider.callbackUrl ? <code>{provider.callbackUrl}</code> : "– (no external URL)"}</td>
            </tr>
          ))}
        </ListTable>
      )}
      <ListFooter pages={pages} empty="No identity provider; users sign in with a password." />
    </section>
  );
}
