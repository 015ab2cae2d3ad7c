import { describe, expect, it } from "vitest";
import { auditFilter, NO_CRITERIA } from "./audit-filter.ts";

describe("audit filter", () => {
  it("is empty without criteria, and joins the given ones with AND, quoted", () => {
    expect(auditFilter(NO_CRITERIA)).toBe("");
    expect(auditFilter({ ...NO_CRITERIA, actor: " alice ", action: "bb.settings.set", resource: 'projects/a"b' })).toBe(
      'actor:"alice" AND action:"bb.settings.set" AND resource:"projects/a\\"b"',
    );
  });

  it("turns the time range into RFC 3339 instants and the status into a code term", () => {
    const from = "2026-03-01T09:30";
    const filter = auditFilter({ ...NO_CRITERIA, from, until: from, status: "failed" });
    const iso = new Date(from).toISOString();
    expect(filter).toBe(`create_time>="${iso}" AND create_time<="${iso}" AND status!=ok`);
    expect(auditFilter({ ...NO_CRITERIA, status: "permission_denied" })).toBe("status=permission_denied");
  });
});
