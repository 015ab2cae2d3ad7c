// Project webhooks (contract §19.3): listed and read with the project,
// created, updated by mask and deleted on an active project. The URL and the
// secret are sealed before they are stored; the URL is checked against
// internal addresses at save (§19.6) unless --webhook-allow-private, and
// again by every send.
import type { CommonQueryMethods } from "slonik";
import { activeProject, getProject, parseProjectName } from "../../inventory/index.ts";
import { aborted, failedPrecondition, maskFields, notFound, type SecretBox } from "../../platform/index.ts";
import { refuseInternalUrl } from "../address-guard.ts";
import { checkEvents, checkSecret, checkTitle, checkType, checkUrl, MAX_WEBHOOKS, parseWebhookName, urlShown, type WebhookDraft } from "./webhook-fields.ts";
import { countWebhooks, deleteWebhook, findWebhook, insertWebhook, listWebhooks, updateWebhook, type WebhookFields, type WebhookRow } from "./webhook.store.ts";

export interface WebhookWriteDeps {
  secrets: SecretBox;
  /** --webhook-allow-private. */
  allowPrivate: boolean;
}

export interface WebhookUpdate {
  name: string;
  draft: WebhookDraft;
  /** update_mask paths. */
  paths: readonly string[];
  /** The etag the writer read; empty writes unconditionally. */
  etag: string;
}

const MASK = {
  resource: "webhook",
  editable: ["title", "type", "url", "secret", "events"],
  outputOnly: ["name", "url_shown", "secret_set", "creator", "create_time", "update_time", "etag"],
} as const;

export async function listProjectWebhooks(db: CommonQueryMethods, parent: string): Promise<readonly WebhookRow[]> {
  const project = await getProject(db, parseProjectName(parent, "parent"));
  return listWebhooks(db, project.id);
}

export async function getProjectWebhook(db: CommonQueryMethods, name: string): Promise<WebhookRow> {
  const ref = parseWebhookName(name, "name");
  await getProject(db, ref.projectId);
  return existing(db, name, false);
}

export async function createProjectWebhook(tx: CommonQueryMethods, deps: WebhookWriteDeps, parent: string, creator: string, draft: WebhookDraft): Promise<WebhookRow> {
  const project = await activeProject(tx, parseProjectName(parent, "parent"), true);
  if ((await countWebhooks(tx, project.id)) >= MAX_WEBHOOKS) throw failedPrecondition(`${parent} already has ${MAX_WEBHOOKS} webhooks, the most a project may hold`);
  const type = checkType(draft.type);
  const fields = await sealedFields(deps, { title: checkTitle(draft.title), type, url: draft.url, secret: checkSecret(draft.secret, type), events: checkEvents(draft.events) }, true);
  return insertWebhook(tx, project.id, fields, creator);
}

export async function updateProjectWebhook(tx: CommonQueryMethods, deps: WebhookWriteDeps, update: WebhookUpdate): Promise<WebhookRow> {
  const fields = maskFields(update.paths, MASK);
  const ref = parseWebhookName(update.name, "webhook.name");
  await activeProject(tx, ref.projectId);
  const current = await existing(tx, update.name, true);
  if (update.etag && update.etag !== current.etag) throw aborted(`${update.name} changed since it was read (etag ${update.etag} is stale); read it again and retry`);
  const { draft } = update;
  const type = fields.has("type") ? checkType(draft.type) : current.type;
  const secret = fields.has("secret") ? draft.secret : current.sealedSecret && deps.secrets.open(current.sealedSecret);
  const next = {
    title: fields.has("title") ? checkTitle(draft.title) : current.title,
    type,
    url: fields.has("url") ? draft.url : deps.secrets.open(current.sealedUrl),
    secret: checkSecret(secret, type),
    events: fields.has("events") ? checkEvents(draft.events) : current.events,
  };
  return updateWebhook(tx, current.id, await sealedFields(deps, next, fields.has("url")));
}

export async function deleteProjectWebhook(tx: CommonQueryMethods, name: string): Promise<void> {
  const ref = parseWebhookName(name, "name");
  await activeProject(tx, ref.projectId);
  if (!(await deleteWebhook(tx, ref.projectId, ref.id))) throw notFound(`${name} does not exist`);
}

interface CheckedWebhook {
  title: string;
  type: WebhookRow["type"];
  url: string;
  secret: string | undefined;
  events: string[];
}

/** The stored form: the URL checked (against internal addresses when it is new) and sealed with the secret. */
async function sealedFields(deps: WebhookWriteDeps, webhook: CheckedWebhook, newUrl: boolean): Promise<WebhookFields> {
  const url = checkUrl(webhook.url, webhook.type);
  if (newUrl && !deps.allowPrivate) await refuseInternalUrl(url, "webhook.url");
  return {
    title: webhook.title,
    type: webhook.type,
    sealedUrl: deps.secrets.seal(url.href),
    urlShown: urlShown(url, webhook.type),
    sealedSecret: webhook.secret === undefined ? undefined : deps.secrets.seal(webhook.secret),
    events: webhook.events,
  };
}

async function existing(db: CommonQueryMethods, name: string, forUpdate: boolean): Promise<WebhookRow> {
  const ref = parseWebhookName(name, "name");
  const row = await findWebhook(db, ref.projectId, ref.id, forUpdate);
  if (!row) throw notFound(`${name} does not exist`);
  return row;
}

