// SQL on the setting table (one row per SettingName).
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";

const settingValue = z.object({ value: z.record(z.string(), z.unknown()) });

/** The stored payload of a setting, or undefined when it was never written. */
export async function getStoredSetting(db: CommonQueryMethods, name: string): Promise<Record<string, unknown> | undefined> {
  const row = await db.maybeOne(sql.type(settingValue)`select value from setting where name = ${name}`);
  return row?.value;
}

/** Stores the workspace profile of a new workspace, unless one exists. */
export async function initWorkspaceProfile(db: CommonQueryMethods, value: Record<string, unknown>): Promise<void> {
  await db.query(sql.unsafe`
    insert into setting (name, value, updater) values ('WORKSPACE_PROFILE', ${sql.jsonb(value as never)}, 'system')
    on conflict (name) do nothing`);
}

/** Stores SYSTEM's encryption key id unless one is stored; answers the stored id. */
export async function claimEncryptionKeyId(db: CommonQueryMethods, keyId: string): Promise<string> {
  await db.query(sql.unsafe`
    insert into setting (name, value, updater) values ('SYSTEM', ${sql.jsonb({ encryptionKeyId: keyId })}, 'system')
    on conflict (name) do update set value = setting.value || excluded.value
      where setting.value->>'encryptionKeyId' is null`);
  return db.oneFirst(sql.type(z.object({ keyId: z.string() }))`
    select value->>'encryptionKeyId' as "keyId" from setting where name = 'SYSTEM'`);
}
