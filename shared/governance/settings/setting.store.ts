// SQL on the setting table (one row per SettingName).
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";

const settingValue = z.object({ value: z.record(z.string(), z.unknown()) });

/** The stored payload of a setting, or undefined when it was never written. */
export async function getStoredSetting(db: CommonQueryMethods, name: string): Promise<Record<string, unknown> | undefined> {
  const row = await db.maybeOne(sql.type(settingValue)`select value from setting where name = ${name}`);
  return row?.value;
}

/**
 * The stored payload of a setting, share-locked until the caller's
 * transaction ends: a write of the setting (which locks its row for update)
 * waits for the caller, and the caller for a write under way.
 */
export async function getStoredSettingForShare(tx: CommonQueryMethods, name: string): Promise<Record<string, unknown> | undefined> {
  const row = await tx.maybeOne(sql.type(settingValue)`select value from setting where name = ${name} for share`);
  return row?.value;
}

/** Stores the workspace profile of a new workspace, unless one exists. */
export async function initWorkspaceProfile(db: CommonQueryMethods, value: Record<string, unknown>): Promise<void> {
  await db.query(sql.unsafe`
    insert into setting (name, value, updater) values ('WORKSPACE_PROFILE', ${sql.jsonb(value as never)}, 'system')
    on conflict (name) do nothing`);
}

const encryptionKeyIdRow = z.object({ keyId: z.string() });

/** Stores SYSTEM's encryption key id unless one is stored; answers the stored id. */
export async function claimEncryptionKeyId(db: CommonQueryMethods, keyId: string): Promise<string> {
  await db.query(sql.unsafe`
    insert into setting (name, value, updater) values ('SYSTEM', ${sql.jsonb({ encryptionKeyId: keyId })}, 'system')
    on conflict (name) do update set value = setting.value || excluded.value
      where setting.value->>'encryptionKeyId' is null`);
  return db.oneFirst(sql.type(encryptionKeyIdRow)`
    select value->>'encryptionKeyId' as "keyId" from setting where name = 'SYSTEM'`);
}

const settingRow = z.object({
  value: z.record(z.string(), z.unknown()),
  etag: z.string(),
  updateTime: z.coerce.date(),
});
export type SettingRow = z.infer<typeof settingRow>;

const namedSettingRow = settingRow.extend({ name: z.string() });

/** The stored rows of the named settings, by name (a setting never written has none). */
export async function findSettingRows(db: CommonQueryMethods, names: readonly string[]): Promise<Map<string, SettingRow>> {
  const rows = await db.any(sql.type(namedSettingRow)`
    select name, value, etag, update_time as "updateTime" from setting where name = any(${sql.array(names, "text")})`);
  return new Map(rows.map(({ name, ...row }) => [name, row]));
}

/** The row of a setting, locked for the caller's transaction (created empty when never written). */
export async function lockSettingRow(tx: CommonQueryMethods, name: string): Promise<SettingRow> {
  await tx.query(sql.unsafe`insert into setting (name, value) values (${name}, '{}') on conflict (name) do nothing`);
  return tx.one(sql.type(settingRow)`
    select value, etag, update_time as "updateTime" from setting where name = ${name} for update`);
}

export async function saveSettingValue(tx: CommonQueryMethods, name: string, value: Record<string, unknown>, updater: string): Promise<SettingRow> {
  return tx.one(sql.type(settingRow)`
    update setting set value = ${sql.jsonb(value as never)}, etag = md5(random()::text), update_time = now(), updater = ${updater}
    where name = ${name}
    returning value, etag, update_time as "updateTime"`);
}

export async function setEncryptionKeyId(tx: CommonQueryMethods, keyId: string): Promise<void> {
  await tx.query(sql.unsafe`
    update setting set value = value || ${sql.jsonb({ encryptionKeyId: keyId })}, update_time = now(), updater = 'system'
    where name = 'SYSTEM'`);
}
