import { describe, expect, it } from "vitest";
import { pathOf, paths } from "./paths.ts";

describe("pathOf", () => {
  it("fills a route's segments, each escaped so that a value cannot add a segment", () => {
    expect(pathOf(paths.databaseSchema, { project: "shop", instance: "pg-1", database: "orders" })).toBe("/projects/shop/databases/pg-1/orders");
    expect(pathOf(paths.projectMembers, { project: "a/b c" })).toBe("/projects/a%2Fb%20c/members");
  });
});
