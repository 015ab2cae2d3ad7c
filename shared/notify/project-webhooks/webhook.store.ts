// SQL on project_webhook (migration 0029). `url` and `secret` hold sealed
// values; only sending and testing open them.
import { type CommonQueryMethods, sql } from "slonik";
import { z } from "zod";

export const WEBHOOK_TYPES = ["SLACK", "DISCORD", "TEAMS", "DINGTALK", "FEISHU", "LARK", "WECOM", "TELEGRAM", "GENERIC"] as const;
export type WebhookType = (typeof WEBHOOK_TYPES)[number];

const webhookRow = z
  .object({
    id: z.string(),
    project_id: z.string(),
    title: z.string(),
    type: z.enum(WEBHOOK_TYPES),
    url: z.string(),
    url_shown: z.string(),
    secret: z.string().nullable(),
    events: z.array(z.string()),
    creator: z.string(),
    etag: z.string(),
    create_time: z.coerce.date(),
    update_time: z.coerce.date(),
  })
  .transform((r) => ({
    id: r.id,
    projectId: r.project_id,
    title: r.title,
    type: r.type,
    sealedUrl: r.url,
    urlShown: r.url_shown,
    sealedSecret: r.secret ?? undefined,
    events: r.events,
    creator: r.creator,
    etag: r.etag,
    createTime: r.create_time,
    updateTime: r.update_time,
  }));
export type WebhookRow = z.infer<typeof webhookRow>;

/** What a write sets. */
export type WebhookFields = Pick<WebhookRow, "title" | "type" | "sealedUrl" | "urlShown" | "sealedSecret" | "events">;

const columns = sql.fragment`id::text as id, project_id, title, type, url, url_shown, secret, events, creator, etag, create_time, update_time`;
const newEtag = sql.fragment`md5(random()::text || clock_timestamp()::text)`;

export async function listWebhooks(db: CommonQueryMethods, projectId: string): Promise<readonly WebhookRow[]> {
  return db.any(sql.type(webhookRow)`select ${columns} from project_webhook where project_id = ${projectId} order by id`);
}

const countRow = z.object({ n: z.number() });
const idRow = z.object({ id: z.string() });

export async function findWebhook(db: CommonQueryMethods, projectId: string, id: string, forUpdate = false): Promise<WebhookRow | undefined> {
  const lock = forUpdate ? sql.fragment`for update` : sql.fragment``;
  return (await db.maybeOne(sql.type(webhookRow)`select ${columns} from project_webhook where project_id = ${projectId} and id = ${id} ${lock}`)) ?? undefined;
}

export async function countWebhooks(db: CommonQueryMethods, projectId: string): Promise<number> {
  return db.oneFirst(sql.type(countRow)`select count(*)::int as n from project_webhook where project_id = ${projectId}`);
}

export async function insertWebhook(tx: CommonQueryMethods, projectId: string, fields: WebhookFields, creator: string): Promise<WebhookRow> {
  return tx.one(sql.type(webhookRow)`
    insert into project_webhook (project_id, title, type, url, url_shown, secret, events, creator)
    values (${projectId}, ${fields.title}, ${fields.type}, ${fields.sealedUrl}, ${fields.urlShown}, ${fields.sealedSecret ?? null},
            ${sql.array(fields.events, "text")}, ${creator})
    returning ${columns}`);
}

export async function updateWebhook(tx: CommonQueryMethods, id: string, fields: WebhookFields): Promise<WebhookRow> {
  return tx.one(sql.type(webhookRow)`
    update project_webhook set title = ${fields.title}, type = ${fields.type}, url = ${fields.sealedUrl}, url_shown = ${fields.urlShown},
      secret = ${fields.sealedSecret ?? null}, events = ${sql.array(fields.events, "text")}, etag = ${newEtag}, update_time = now()
    where id = ${id}
    returning ${columns}`);
}

/** False when there was no such webhook. */
export async function deleteWebhook(tx: CommonQueryMethods, projectId: string, id: string): Promise<boolean> {
  const deleted = await tx.maybeOne(sql.type(idRow)`delete from project_webhook where project_id = ${projectId} and id = ${id} returning id::text as id`);
  return deleted !== null;
}
