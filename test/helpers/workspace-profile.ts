// Writing WORKSPACE_PROFILE by SQL, as an operator's direct write would, in
// tests whose server reads it through its setting cache: the change reaches
// the cache by an announcement, so the helper waits until the cache has it.
import type { TestApp } from "./app.ts";
import { adminQuery } from "./db.ts";
import { eventually } from "./instances.ts";

/** Merges `value` into the stored profile; resolves once the server's setting cache shows every field of it. */
export async function mergeWorkspaceProfile(app: TestApp, value: Record<string, unknown>): Promise<void> {
  await adminQuery(
    `insert into setting (name, value) values ('WORKSPACE_PROFILE', '${JSON.stringify(value)}')
     on conflict (name) do update set value = setting.value || excluded.value`,
    app.database.url,
  );
  await eventually(async () => {
    const cached = await app.settings.get("WORKSPACE_PROFILE");
    return Object.entries(value).every(([key, v]) => cached?.[key] === v);
  });
}
