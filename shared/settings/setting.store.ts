// SQL on the setting table (one row per SettingName).
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";

const settingValue = z.object({ value: z.record(z.string(), z.unknown()) });

/** The stored payload of a setting, or undefined when it was never written. */
export async function getStoredSetting(db: CommonQueryMethods, name: string): Promise<Record<string, unknown> | undefined> {
  const row = await db.maybeOne(sql.type(settingValue)`select value from setting where name = ${name}`);
  return row?.value;
}
