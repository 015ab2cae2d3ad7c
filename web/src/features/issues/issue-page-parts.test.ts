import { create } from "@bufbuild/protobuf";
import { Issue_ApprovalStatus, Issue_Approver_Status, Issue_Status, IssueSchema } from "@gen/svc/v1/issue_service_pb.js";
import { PlanSchema } from "@gen/svc/v1/plan_service_pb.js";
import { describe, expect, it } from "vitest";
import { positionText } from "../changes/check-results.tsx";
import { targetsOf } from "../changes/plan-targets.ts";
import { issueNameOf, issuePagePath } from "./issue-address.ts";
import { approvalChoices } from "./issue-actions.tsx";
import { eventText } from "./issue-comments.tsx";

describe("the issue page's parts", () => {
  it("maps an issue's name to its page and back", () => {
    expect(issuePagePath("projects/shop/issues/12")).toBe("/projects/shop/issues/12");
    expect(issueNameOf({ project: "shop", issue: "12" })).toBe("projects/shop/issues/12");
  });

  it("offers approve and reject on a pending issue to a user who has not decided a step, and review again to the creator of a rejected one", () => {
    const pending = create(IssueSchema, { status: Issue_Status.OPEN, approvalStatus: Issue_ApprovalStatus.PENDING, creator: "users/dev" });
    expect(approvalChoices(pending, "users/owner")).toEqual({ decide: true, requestReview: false });
    const decided = { ...pending, approvers: [{ ...pending.approvers[0], principal: "users/owner", step: 0, status: Issue_Approver_Status.APPROVED }] } as typeof pending;
    expect(approvalChoices(decided, "users/owner").decide).toBe(false);
    const rejected = { ...pending, approvalStatus: Issue_ApprovalStatus.REJECTED };
    expect(approvalChoices(rejected, "users/dev")).toEqual({ decide: false, requestReview: true });
    expect(approvalChoices(rejected, "users/owner")).toEqual({ decide: false, requestReview: false });
    expect(approvalChoices({ ...pending, status: Issue_Status.CANCELED }, "users/owner").decide).toBe(false);
  });

  it("groups a plan's statements by target database, in plan order", () => {
    const plan = create(PlanSchema, {
      specs: [
        { id: "a", changeDatabaseConfig: { targets: ["instances/i/databases/x", "instances/i/databases/y"], statement: "create table t (id int)" } },
        { id: "b", changeDatabaseConfig: { targets: ["instances/i/databases/y"], statement: "insert into t values (1)" } },
      ],
    });
    expect(targetsOf(plan).map(({ target, specs }) => [target, specs.map((s) => s.id)])).toEqual([
      ["instances/i/databases/x", ["a"]],
      ["instances/i/databases/y", ["a", "b"]],
    ]);
  });

  it("says where a check points, and what an event was", () => {
    expect(positionText({ line: 3, column: 7 })).toBe("line 3, column 7");
    expect(positionText({ line: 2, column: 0 })).toBe("line 2");
    expect(positionText({ line: 0, column: 0 })).toBe("");
    expect(eventText({ event: { kind: "TASK_FAILED" } as never, comment: "" })).toBe("Task failed");
    expect(eventText({ event: { kind: "APPROVED" } as never, comment: "Looks right." })).toBe("Approved: Looks right.");
  });
});
