// SQL on user_group: groups of users (contract §5.2). Members live in
// group_member (group-member.store.ts).
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import { textIdRow } from "../../platform/index.ts";

export const groupRow = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    email: z.string(),
    require_2fa: z.boolean(),
    source: z.enum(["LOCAL", "SCIM"]),
    etag: z.string(),
    create_time: z.coerce.date(),
    update_time: z.coerce.date(),
  })
  .transform((r) => ({
    id: r.id,
    title: r.title,
    description: r.description,
    email: r.email,
    require2fa: r.require_2fa,
    source: r.source,
    etag: r.etag,
    createTime: r.create_time,
    updateTime: r.update_time,
  }));

export type GroupRow = z.infer<typeof groupRow>;

export const columns = sql.fragment`id, title, description, email, require_2fa, source, etag, create_time, update_time`;

export interface GroupFields {
  title: string;
  description: string;
  email: string;
  require2fa: boolean;
}

/** The new group, or undefined when the id is taken. */
export async function insertGroup(db: CommonQueryMethods, id: string, fields: GroupFields): Promise<GroupRow | undefined> {
  const row = await db.maybeOne(sql.type(groupRow)`
    insert into user_group (id, title, description, email, require_2fa)
    values (${id}, ${fields.title}, ${fields.description}, ${fields.email}, ${fields.require2fa})
    on conflict (id) do nothing
    returning ${columns}`);
  return row ?? undefined;
}

/** One group; `lock` holds it until the transaction ends. */
export async function findGroup(db: CommonQueryMethods, id: string, lock = false): Promise<GroupRow | undefined> {
  const row = await db.maybeOne(sql.type(groupRow)`
    select ${columns} from user_group where id = ${id} ${lock ? sql.fragment`for update` : sql.fragment``}`);
  return row ?? undefined;
}

/** Groups by id, after `afterId`. */
export async function listGroups(db: CommonQueryMethods, afterId: string, limit: number): Promise<readonly GroupRow[]> {
  return db.any(sql.type(groupRow)`select ${columns} from user_group where id > ${afterId} order by id limit ${limit}`);
}

/** Writes the fields and gives the group a new etag (also when only its members changed). */
export async function updateGroup(db: CommonQueryMethods, id: string, fields: GroupFields): Promise<GroupRow> {
  return db.one(sql.type(groupRow)`
    update user_group
    set title = ${fields.title}, description = ${fields.description}, email = ${fields.email}, require_2fa = ${fields.require2fa},
        update_time = now(), etag = md5(random()::text || clock_timestamp()::text)
    where id = ${id}
    returning ${columns}`);
}

/** Deletes the group and (by cascade) its members. */
export async function deleteGroup(db: CommonQueryMethods, id: string): Promise<void> {
  await db.query(sql.unsafe`delete from user_group where id = ${id}`);
}

/**
 * The ids among `ids` of groups that exist, share-locked: a group named by a
 * policy being written cannot be deleted before that write commits.
 */
export async function shareLockGroups(db: CommonQueryMethods, ids: readonly string[]): Promise<Set<string>> {
  const rows = await db.anyFirst(sql.type(textIdRow)`
    select id from user_group where id = any(${sql.array([...new Set(ids)], "text")}) for share`);
  return new Set(rows);
}
