// SQL on custom_role: the workspace's own roles (contract §6.3). Ids compare
// case-insensitively (lower(id) is unique); bindings name the stored id.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import { textIdRow } from "../../platform/index.ts";

const customRoleRow = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    permissions: z.array(z.string()),
    etag: z.string(),
    create_time: z.coerce.date(),
    update_time: z.coerce.date(),
  })
  .transform((r) => ({
    id: r.id,
    title: r.title,
    description: r.description,
    permissions: r.permissions,
    etag: r.etag,
    createTime: r.create_time,
    updateTime: r.update_time,
  }));

export type CustomRoleRow = z.infer<typeof customRoleRow>;

const columns = sql.fragment`id, title, description, permissions, etag, create_time, update_time`;

export interface CustomRoleFields {
  title: string;
  description: string;
  permissions: readonly string[];
}

/** The new role, or undefined when a role with the same id (in any case) exists. */
export async function insertCustomRole(db: CommonQueryMethods, id: string, fields: CustomRoleFields, creator: string): Promise<CustomRoleRow | undefined> {
  const row = await db.maybeOne(sql.type(customRoleRow)`
    insert into custom_role (id, title, description, permissions, creator)
    values (${id}, ${fields.title}, ${fields.description}, ${sql.array(fields.permissions, "text")}, ${creator})
    on conflict do nothing
    returning ${columns}`);
  return row ?? undefined;
}

/** The role whose id equals `id` ignoring case; `lock` holds it until the transaction ends. */
export async function findCustomRole(db: CommonQueryMethods, id: string, lock = false): Promise<CustomRoleRow | undefined> {
  const row = await db.maybeOne(sql.type(customRoleRow)`
    select ${columns} from custom_role where lower(id) = ${id.toLowerCase()} ${lock ? sql.fragment`for update` : sql.fragment``}`);
  return row ?? undefined;
}

/** Custom roles by lower-case id, after `afterFoldedId`, in that order. */
export async function listCustomRoles(db: CommonQueryMethods, afterFoldedId: string, limit: number): Promise<readonly CustomRoleRow[]> {
  return db.any(sql.type(customRoleRow)`
    select ${columns} from custom_role where lower(id) > ${afterFoldedId} order by lower(id) limit ${limit}`);
}

export async function updateCustomRole(db: CommonQueryMethods, id: string, fields: CustomRoleFields): Promise<CustomRoleRow> {
  return db.one(sql.type(customRoleRow)`
    update custom_role
    set title = ${fields.title}, description = ${fields.description}, permissions = ${sql.array(fields.permissions, "text")},
        update_time = now(), etag = md5(random()::text || clock_timestamp()::text)
    where id = ${id}
    returning ${columns}`);
}

export async function deleteCustomRole(db: CommonQueryMethods, id: string): Promise<void> {
  await db.query(sql.unsafe`delete from custom_role where id = ${id}`);
}

const rolePermissionsRow = z.object({ id: z.string(), permissions: z.array(z.string()) });

/** The permissions of the custom roles with these stored ids (one query for a whole check). */
export async function customRolePermissions(db: CommonQueryMethods, ids: readonly string[]): Promise<Map<string, readonly string[]>> {
  const rows = await db.any(sql.type(rolePermissionsRow)`
    select id, permissions from custom_role where id = any(${sql.array(ids, "text")})`);
  return new Map(rows.map((r) => [r.id, r.permissions]));
}

/**
 * The stored ids of the custom roles among `ids` (any case), keyed by their
 * lower-case form and share-locked: a role named by a policy being written
 * cannot be deleted before that write commits.
 */
export async function shareLockCustomRoles(db: CommonQueryMethods, ids: readonly string[]): Promise<Map<string, string>> {
  const folded = [...new Set(ids.map((id) => id.toLowerCase()))];
  const rows = await db.anyFirst(sql.type(textIdRow)`
    select id from custom_role where lower(id) = any(${sql.array(folded, "text")}) for share`);
  return new Map(rows.map((id) => [id.toLowerCase(), id]));
}
