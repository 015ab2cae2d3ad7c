// IdentityProviderService: identity providers for single sign-on (contract
// §4.1, §4.8). Lists are public in a reduced form for sign-in pages.
import { IdentityProviderService } from "../../shared/gen/svc/v1/identity_provider_service_pb.js";
import {
  createIdentityProvider,
  deleteIdentityProvider,
  getIdp,
  hasPermission,
  type IamReads,
  idpName,
  listIdentityProviders,
  parseIdpName,
  testIdentityProvider,
  updateIdentityProvider,
  WORKSPACE,
} from "../../shared/identity/index.ts";
import { type Db, pageSize, type SecretBox } from "../../shared/platform/index.ts";
import { readWorkspaceProfile, type SettingReader } from "../../shared/governance/index.ts";
import { auditScope } from "../transport/audit-scope.ts";
import { callerOf, kPrincipal } from "../transport/interceptors/authn.ts";
import { registration } from "../transport/services.ts";
import { configDraft, toIdentityProvider, toPublicIdentityProvider } from "./identity-provider-convert.ts";

export interface IdentityProviderDeps {
  db: Db;
  /** IAM reads for permission checks (the access cache). */
  iam: IamReads;
  settings: SettingReader;
  /** Seals the providers' credentials. */
  secrets: SecretBox;
}

export function identityProviderService(deps: IdentityProviderDeps) {
  const externalUrl = async () => (await readWorkspaceProfile(deps.settings)).externalUrl;

  return registration(IdentityProviderService, {
    async listIdentityProviders(req, context) {
      const caller = context.values.get(kPrincipal);
      const full = caller !== undefined && (await hasPermission(deps.iam, caller, "bb.identityProviders.get", WORKSPACE));
      const page = await listIdentityProviders(deps.db, pageSize(req.pageSize), req.pageToken);
      const url = await externalUrl();
      return {
        identityProviders: page.idps.map((row) => (full ? toIdentityProvider(row, url) : toPublicIdentityProvider(row))),
        nextPageToken: page.nextPageToken,
      };
    },
    async getIdentityProvider(req) {
      return toIdentityProvider(await getIdp(deps.db, parseIdpName(req.name, "name")), await externalUrl());
    },
    async createIdentityProvider(req, context) {
      const audit = auditScope(context);
      if (req.idpId) audit.resource = idpName(req.idpId);
      const row = await createIdentityProvider(audit.tx, deps.secrets, callerOf(context).name, req.idpId, {
        title: req.identityProvider?.title ?? "",
        domain: req.identityProvider?.domain ?? "",
        config: configDraft(req.identityProvider?.config),
      });
      return toIdentityProvider(row, await externalUrl());
    },
    async updateIdentityProvider(req, context) {
      const audit = auditScope(context);
      const id = parseIdpName(req.identityProvider?.name ?? "", "identity_provider.name");
      audit.resource = idpName(id);
      const row = await updateIdentityProvider(audit.tx, deps.secrets, {
        id,
        paths: req.updateMask?.paths ?? [],
        etag: req.identityProvider?.etag ?? "",
        title: req.identityProvider?.title ?? "",
        domain: req.identityProvider?.domain ?? "",
        config: configDraft(req.identityProvider?.config),
      });
      return toIdentityProvider(row, await externalUrl());
    },
    async deleteIdentityProvider(req, context) {
      const audit = auditScope(context);
      const id = parseIdpName(req.name, "name");
      audit.resource = idpName(id);
      await deleteIdentityProvider(audit.tx, id);
      return {};
    },
    async testIdentityProvider(req) {
      const idp = await getIdp(deps.db, parseIdpName(req.name, "name"));
      return testIdentityProvider(idp, deps.secrets, await externalUrl());
    },
  });
}
