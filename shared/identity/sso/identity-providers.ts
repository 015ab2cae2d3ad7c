// Managing identity providers (contract §4.1, §4.8): ids are checked, the
// configuration is checked and its credentials sealed, the type never
// changes, a stale etag is refused, lists page by id.
import type { CommonQueryMethods } from "slonik";
import {
  aborted,
  alreadyExists,
  decodePageToken,
  encodePageToken,
  invalidArgument,
  maskFields,
  notFound,
  parseResourceName,
  quoted,
  RESOURCE_ID_PATTERN,
  type SecretBox,
} from "../../platform/index.ts";
import { checkedConfig, configType, type ConfigDraft } from "./idp-config.ts";
import { deleteIdp, findIdp, insertIdp, listIdps, updateIdp, type IdpRow } from "./idp.store.ts";

const IDP_COLLECTION = "idps";

export interface IdpDraft {
  title: string;
  domain: string;
  config: ConfigDraft | undefined;
}

export interface IdpUpdate extends IdpDraft {
  id: string;
  /** update_mask paths: title, domain, config. */
  paths: readonly string[];
  /** The etag the writer read; empty writes unconditionally. */
  etag: string;
}

const MASK = {
  resource: "identity_provider",
  editable: ["title", "domain", "config"],
  outputOnly: ["name", "type", "callback_url", "create_time", "update_time", "etag"],
} as const;
const DOMAIN = /^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+$/;
const LIST_QUERY = "idps";

export function idpName(id: string): string {
  return `${IDP_COLLECTION}/${id}`;
}

export function parseIdpName(name: string, field: string): string {
  return parseResourceName(name, IDP_COLLECTION, field);
}

export async function getIdp(db: CommonQueryMethods, id: string): Promise<IdpRow> {
  const row = await findIdp(db, id);
  if (!row) throw notFound(`identity provider "${idpName(id)}" does not exist`);
  return row;
}

export async function listIdentityProviders(db: CommonQueryMethods, size: number, pageToken: string) {
  const after = decodePageToken(pageToken, LIST_QUERY, ["text"])?.[0];
  const rows = await listIdps(db, typeof after === "string" ? after : "", size + 1);
  const page = rows.slice(0, size);
  const nextPageToken = rows.length > size ? encodePageToken(LIST_QUERY, [page[page.length - 1]!.id]) : "";
  return { idps: page, nextPageToken };
}

export async function createIdentityProvider(tx: CommonQueryMethods, secrets: SecretBox, creator: string, id: string, draft: IdpDraft): Promise<IdpRow> {
  if (!RESOURCE_ID_PATTERN.test(id)) {
    throw invalidArgument(`idp_id: ${quoted(id)} is not a valid id; it starts with a lower-case letter and has up to 63 lower-case letters, digits and hyphens`);
  }
  if (!draft.config) throw invalidArgument("identity_provider.config is required: set oidc or saml");
  const config = checkedConfig(draft.config, secrets);
  const row = await insertIdp(tx, id, configType(config), { title: checkedTitle(draft.title), domain: checkedDomain(draft.domain), config }, creator);
  if (!row) throw alreadyExists(`identity provider "${idpName(id)}" already exists`);
  return row;
}

export async function updateIdentityProvider(tx: CommonQueryMethods, secrets: SecretBox, update: IdpUpdate): Promise<IdpRow> {
  const fields = maskFields(update.paths, MASK);
  const row = await findIdp(tx, update.id, true);
  if (!row) throw notFound(`identity provider "${idpName(update.id)}" does not exist`);
  if (update.etag && update.etag !== row.etag) {
    throw aborted(`identity provider "${idpName(row.id)}" changed since it was read (etag ${update.etag} is stale); read it again and retry`);
  }
  let config = row.config;
  if (fields.has("config")) {
    if (!update.config) throw invalidArgument("identity_provider.config is required when the mask names config");
    if (configType(update.config) !== row.type) {
      throw invalidArgument(`identity_provider.config: the provider's type is ${row.type} and cannot change; set config.${row.type.toLowerCase()}`);
    }
    config = checkedConfig(update.config, secrets, row.config);
  }
  return updateIdp(tx, row.id, {
    title: fields.has("title") ? checkedTitle(update.title) : row.title,
    domain: fields.has("domain") ? checkedDomain(update.domain) : row.domain,
    config,
  });
}

export async function deleteIdentityProvider(tx: CommonQueryMethods, id: string): Promise<void> {
  if (!(await deleteIdp(tx, id))) throw notFound(`identity provider "${idpName(id)}" does not exist`);
}

function checkedTitle(title: string): string {
  const text = title.trim();
  if (!text) throw invalidArgument("identity_provider.title is required");
  if (text.length > 200) throw invalidArgument("identity_provider.title must be at most 200 characters");
  return text;
}

function checkedDomain(domain: string): string {
  const text = domain.trim().toLowerCase();
  if (text && !DOMAIN.test(text)) throw invalidArgument(`identity_provider.domain: ${quoted(domain)} is not a domain name (e.g. example.com)`);
  return text;
}
