import { describe, expect, it } from "vitest";
import { createPermissionCache, type Permission } from "./permission-cache.ts";

/** A server that grants `granted` and records what it was asked. */
function server(granted: string[]) {
  const asked: string[][] = [];
  const ask = async (resource: string, permissions: Permission[]) => {
    asked.push([resource, ...permissions]);
    return permissions.filter((p) => granted.includes(p));
  };
  return { asked, ask };
}

describe("permission cache", () => {
  it("answers the held subset, asking once for what several pages want together", async () => {
    const { asked, ask } = server(["bb.settings.get"]);
    const cache = createPermissionCache(ask);
    const [first, second] = await Promise.all([
      cache.held("workspaces/-", ["bb.settings.get", "bb.settings.set"]),
      cache.held("workspaces/-", ["bb.settings.set"]),
    ]);
    expect([...first]).toEqual(["bb.settings.get"]);
    expect([...second]).toEqual([]);
    expect(asked).toEqual([["workspaces/-", "bb.settings.get", "bb.settings.set"]]);
    await cache.held("projects/p", ["bb.settings.get", "bb.issues.create"]);
    await cache.held("workspaces/-", ["bb.settings.set", "bb.users.create"]);
    expect(asked.slice(1)).toEqual([
      ["projects/p", "bb.settings.get", "bb.issues.create"],
      ["workspaces/-", "bb.users.create"],
    ]);
  });

  it("asks again after a minute, after forget, and after a refusal", async () => {
    let clock = 0;
    const { asked, ask } = server([]);
    let refuse = true;
    const cache = createPermissionCache((r, p) => (refuse ? Promise.reject(new Error("unavailable")) : ask(r, p)), () => clock);
    await expect(cache.held("workspaces/-", ["bb.settings.set"])).rejects.toThrow("unavailable");
    refuse = false;
    await cache.held("workspaces/-", ["bb.settings.set"]);
    clock = 60_001;
    await cache.held("workspaces/-", ["bb.settings.set"]);
    cache.forget();
    await cache.held("workspaces/-", ["bb.settings.set"]);
    expect(asked).toHaveLength(3);
  });
});
