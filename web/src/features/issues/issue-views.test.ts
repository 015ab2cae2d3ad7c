import { describe, expect, it } from "vitest";
import { issueListAddress, issueListRequest, issuesPath } from "./issue-views.ts";

describe("issue views", () => {
  it("reads the view and the project from the address, falling back on the approval queue", () => {
    expect(issueListAddress("")).toEqual({ view: "approval" });
    expect(issueListAddress("?view=mine&project=sales-db")).toEqual({ view: "mine", project: "sales-db" });
    expect(issueListAddress("?view=nonsense&project=Bad%20Id")).toEqual({ view: "approval" });
  });

  it("writes addresses that read back the same", () => {
    for (const address of [{ view: "all" as const }, { view: "open" as const, project: "p1" }, { view: "approval" as const }]) {
      const path = issuesPath(address);
      expect(issueListAddress(path.slice(path.indexOf("?") + 1 || path.length))).toEqual(address);
    }
    expect(issuesPath({ project: "p1" })).toBe("/issues?project=p1");
  });

  it("asks the server for the view's filter over the workspace or one project", () => {
    expect(issueListRequest({ view: "approval" })).toEqual({ parent: "projects/-", filter: "approver = me AND status = OPEN" });
    expect(issueListRequest({ view: "all", project: "p1" })).toEqual({ parent: "projects/p1", filter: "" });
  });
});
