// Identity providers ⇄ svc.v1 IdentityProvider. Credentials go one way: in
// from requests, never out; replies carry their `_set` flags (contract §3.4).
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import {
  IdentityProvider_Type,
  IdentityProviderConfigSchema,
  IdentityProviderSchema,
  OidcConfigSchema,
  SamlConfigSchema,
  type FieldMapping as FieldMappingMessage,
  type IdentityProvider,
  type IdentityProviderConfig,
} from "../../shared/gen/svc/v1/identity_provider_service_pb.js";
import { callbackUrl, type ConfigDraft, type FieldMapping, idpName, type IdpRow } from "../../shared/identity/index.ts";

/** The whole provider, for holders of bb.identityProviders.get. */
export function toIdentityProvider(row: IdpRow, externalUrl: string): IdentityProvider {
  return create(IdentityProviderSchema, {
    ...toPublicIdentityProvider(row),
    domain: row.domain,
    config: create(IdentityProviderConfigSchema, { config: configMessage(row) }),
    callbackUrl: callbackUrl(row.type, externalUrl),
    createTime: timestampFromDate(row.createTime),
    updateTime: timestampFromDate(row.updateTime),
    etag: row.etag,
  });
}

/** What a sign-in page may know: name, title and type. */
export function toPublicIdentityProvider(row: IdpRow): IdentityProvider {
  return create(IdentityProviderSchema, { name: idpName(row.id), title: row.title, type: IdentityProvider_Type[row.type] });
}

function configMessage(row: IdpRow): IdentityProviderConfig["config"] {
  if ("oidc" in row.config) {
    const { clientSecret, ...oidc } = row.config.oidc;
    return { case: "oidc", value: create(OidcConfigSchema, { ...oidc, clientSecretSet: clientSecret !== "" }) };
  }
  const { spPrivateKey, ...saml } = row.config.saml;
  return { case: "saml", value: create(SamlConfigSchema, { ...saml, spPrivateKeySet: spPrivateKey !== "" }) };
}

/** The configuration a request writes; undefined when it sets neither oidc nor saml. */
export function configDraft(config: IdentityProviderConfig | undefined): ConfigDraft | undefined {
  const value = config?.config;
  if (value?.case === "oidc") {
    const o = value.value;
    return {
      oidc: {
        issuer: o.issuer.trim(),
        clientId: o.clientId.trim(),
        clientSecret: o.clientSecret,
        scopes: o.scopes,
        fieldMapping: fieldMapping(o.fieldMapping),
        skipTlsVerify: o.skipTlsVerify,
      },
    };
  }
  if (value?.case === "saml") {
    const s = value.value;
    return {
      saml: {
        entityId: s.entityId.trim(),
        ssoUrl: s.ssoUrl.trim(),
        idpCertificate: s.idpCertificate.trim(),
        spEntityId: s.spEntityId.trim(),
        nameIdFormat: s.nameIdFormat.trim(),
        fieldMapping: fieldMapping(s.fieldMapping),
        signRequests: s.signRequests,
        spCertificate: s.spCertificate.trim(),
        spPrivateKey: s.spPrivateKey,
      },
    };
  }
  return undefined;
}

function fieldMapping(mapping: FieldMappingMessage | undefined): FieldMapping {
  return {
    loginId: mapping?.loginId.trim() ?? "",
    email: mapping?.email.trim() ?? "",
    displayName: mapping?.displayName.trim() ?? "",
    groups: mapping?.groups.trim() ?? "",
  };
}
