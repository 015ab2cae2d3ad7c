// SQL on identity_provider (contract §4.8). The config column holds the
// provider's settings with its credentials sealed.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import { storedConfig, type IdpConfig, type IdpType } from "./idp-config.ts";

const idpRow = z
  .object({
    id: z.string(),
    title: z.string(),
    type: z.enum(["OIDC", "SAML"]),
    domain: z.string(),
    config: storedConfig,
    create_time: z.coerce.date(),
    update_time: z.coerce.date(),
    etag: z.string(),
  })
  .transform((r) => ({
    id: r.id,
    title: r.title,
    type: r.type,
    domain: r.domain,
    config: r.config,
    createTime: r.create_time,
    updateTime: r.update_time,
    etag: r.etag,
  }));

export type IdpRow = z.infer<typeof idpRow>;

const columns = sql.fragment`id, title, type, domain, config, create_time, update_time, etag`;

export interface IdpFields {
  title: string;
  domain: string;
  config: IdpConfig;
}

/** The new provider, or undefined when the id is taken. */
export async function insertIdp(db: CommonQueryMethods, id: string, type: IdpType, fields: IdpFields, creator: string): Promise<IdpRow | undefined> {
  const row = await db.maybeOne(sql.type(idpRow)`
    insert into identity_provider (id, title, type, domain, config, creator)
    values (${id}, ${fields.title}, ${type}, ${fields.domain}, ${sql.jsonb(fields.config)}, ${creator})
    on conflict do nothing
    returning ${columns}`);
  return row ?? undefined;
}

/** The provider; `lock` holds it until the transaction ends. */
export async function findIdp(db: CommonQueryMethods, id: string, lock = false): Promise<IdpRow | undefined> {
  const row = await db.maybeOne(sql.type(idpRow)`
    select ${columns} from identity_provider where id = ${id} ${lock ? sql.fragment`for update` : sql.fragment``}`);
  return row ?? undefined;
}

/** Providers by id, after `afterId`. */
export async function listIdps(db: CommonQueryMethods, afterId: string, limit: number): Promise<readonly IdpRow[]> {
  return db.any(sql.type(idpRow)`select ${columns} from identity_provider where id > ${afterId} order by id limit ${limit}`);
}

export async function updateIdp(db: CommonQueryMethods, id: string, fields: IdpFields): Promise<IdpRow> {
  return db.one(sql.type(idpRow)`
    update identity_provider
    set title = ${fields.title}, domain = ${fields.domain}, config = ${sql.jsonb(fields.config)},
        update_time = now(), etag = md5(random()::text || clock_timestamp()::text)
    where id = ${id}
    returning ${columns}`);
}

/** True when a provider was deleted. */
export async function deleteIdp(db: CommonQueryMethods, id: string): Promise<boolean> {
  const result = await db.query(sql.unsafe`delete from identity_provider where id = ${id}`);
  return result.rowCount > 0;
}
